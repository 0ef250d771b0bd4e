/**
 * The work one POST /mcp may cause, on both hosted servers (src/mcp/batch-work.ts). MCP audit F4:
 * a notes batch of 100 `search_notes` calls took 12–19 s and answered 397 MB; a feedback batch of
 * 30 `get_item` calls on a 10 MB item never answered.
 *
 * README (MCP servers, Transport): "A JSON-RPC batch is served only under protocol revisions
 * before 2025-06-18, which removed batching: a batch whose POST names 2025-06-18 or later — in
 * its `MCP-Protocol-Version` header, or in the `initialize` request it holds — is answered 400
 * with -32600 before any of it runs; a POST without the header is taken as 2025-03-26, as the
 * transport spec says. A batch holds at most 10 messages — a longer one, or an empty one, is
 * answered 400 with -32600 before any of them runs — and its calls run one after another, in the
 * order sent. Its answers are sent while they total at most 16 MiB; a call whose answer would
 * pass that gets the JSON-RPC error -32000 "Answer too large" instead (the first call of a POST
 * is always answered in full, as REST answers it)." The revision rule is tested in
 * batch-revisions.e2e.test.ts; this file tests the size, order and answer-size rules.
 */
import { expect } from 'chai';
import { MAX_ANSWER_BYTES, MAX_BATCH_MESSAGES } from '../../src/mcp/batch-work.js';
import { type FeedbackHarness, startFeedback } from '../feedback/support/harness.js';
import { createNotes, type NotesE2e, startNotesE2e } from '../notes/e2e/support.js';
import { callTool, connectMcp } from './support.js';

type Answer = {
  id: number;
  result?: { structuredContent?: { notes?: Array<{ id: string; content: string }> } };
  error?: { code: number; message: string };
};

const call = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

function poster(base: string, token: string) {
  return (body: unknown) =>
    fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify(body),
    });
}

/** The answer to a batch of more than MAX_BATCH_MESSAGES: 400, -32600, refused whole. */
async function expectTooLong(res: Response): Promise<void> {
  expect(res.status).to.equal(400);
  const answer = (await res.json()) as Answer;
  expect(answer.error?.code).to.equal(-32600);
  expect(answer.error?.message).to.include(`Batch must not exceed ${MAX_BATCH_MESSAGES} messages`);
}

describe('When an MCP client sends a JSON-RPC batch to the hosted notes server', function () {
  this.timeout(120_000);
  let notes: NotesE2e;
  let token: string;
  let post: ReturnType<typeof poster>;
  before(async () => {
    notes = await startNotesE2e();
    token = (await notes.signIn('batch@example.com')).token;
    post = poster(notes.base, token);
  });
  after(() => notes?.stop());

  it('refuses a batch of more than 10 messages with 400 and -32600, before any of them runs', async () => {
    const marker = `batch-11-${Date.now()}`;
    const batch = Array.from({ length: MAX_BATCH_MESSAGES + 1 }, (_, i) =>
      call(i + 1, 'create_note', { content: `${marker} ${i}` }),
    );
    const res = await post(batch);
    await expectTooLong(res);
    const listed = await notes.api(token)('GET', '/v1/notes?limit=100');
    expect(listed.text).to.not.include(marker);

    const ten = await post(batch.slice(0, MAX_BATCH_MESSAGES));
    expect(ten.status).to.equal(200);
    expect(((await ten.json()) as Answer[]).map((a) => a.id)).to.deep.equal(
      batch.slice(0, MAX_BATCH_MESSAGES).map((m) => m.id),
    );
  });

  it('runs its calls one after another: a list sees every note the calls before it created', async () => {
    const marker = `batch-order-${Date.now()}`;
    const batch = [1, 2, 3].flatMap((n) => [
      call(n * 2 - 1, 'create_note', { content: `${marker} ${n}` }),
      call(n * 2, 'list_notes', { limit: 100 }),
    ]);
    const res = await post(batch);
    expect(res.status).to.equal(200);
    const answers = (await res.json()) as Answer[];
    expect(answers.map((a) => a.id)).to.deep.equal([1, 2, 3, 4, 5, 6]);
    for (const n of [1, 2, 3]) {
      const listed = answers[n * 2 - 1]!.result?.structuredContent?.notes ?? [];
      const seen = listed.filter((note) => note.content.startsWith(marker)).map((x) => x.content);
      expect(seen.sort(), `list_notes #${n * 2}`).to.deep.equal(
        [1, 2, 3].filter((m) => m <= n).map((m) => `${marker} ${m}`),
      );
    }
  });

  it('answers the calls past 16 MiB of answers with -32000 "Answer too large", the others in full', async () => {
    // a quote is 6 bytes of answer (2 as structured content, 4 in the JSON text): ~4.8 MB a page
    const big = '"'.repeat(100_000);
    await createNotes(
      notes.api(token),
      Array.from({ length: 8 }, () => ({ content: big })),
      4,
    );
    const batch = Array.from({ length: MAX_BATCH_MESSAGES }, (_, i) =>
      call(i + 1, 'list_notes', { limit: 100 }),
    );
    const res = await post(batch);
    expect(res.status).to.equal(200);
    const text = await res.text();
    const answers = JSON.parse(text) as Answer[];
    expect(answers.map((a) => a.id)).to.deep.equal(batch.map((m) => m.id));
    const answered = answers.filter((a) => a.result);
    const refused = answers.filter((a) => a.error);
    expect(answered.length).to.be.within(1, MAX_BATCH_MESSAGES - 1);
    // the answers that fit come first, each whole: every big note is in it
    expect(answers.slice(0, answered.length)).to.deep.equal(answered);
    for (const a of answered) {
      const contents = a.result?.structuredContent?.notes?.map((n) => n.content) ?? [];
      expect(contents.filter((c) => c === big)).to.have.length(8);
    }
    for (const a of refused) {
      expect(a.error?.code).to.equal(-32000);
      expect(a.error?.message).to.match(/^Answer too large/);
    }
    expect(Buffer.byteLength(text)).to.be.at.most(MAX_ANSWER_BYTES + 1000 * refused.length);
    // README (Logs, metrics, shutdown): a batch is counted with the worst status of its calls,
    // an answer refused as too large 413 (the client's to send again on its own), not 200
    const metrics = await (await fetch(`${notes.base}/metrics`)).text();
    expect(metrics).to.match(/operation="mcp",method="POST",status="413"/);

    // a lone call is answered in full, as over REST
    const mcp = await connectMcp(`${notes.base}/mcp`, { token });
    try {
      const alone = await callTool(mcp, 'list_notes', { limit: 100 });
      const structured = alone.structuredContent as { notes: Array<{ content: string }> };
      expect(structured.notes.filter((n) => n.content === big)).to.have.length(8);
    } finally {
      await mcp.close();
    }
  });
});

describe('When an MCP client sends a JSON-RPC batch to the hosted feedback server', function () {
  this.timeout(120_000);
  let fb: FeedbackHarness;
  let post: ReturnType<typeof poster>;
  before(async () => {
    fb = await startFeedback();
    const owner = await fb.createMaker('batch@acme.io');
    post = poster(fb.url, owner.token);
  });
  after(() => fb?.stop());

  it('refuses a batch of more than 10 messages with 400 and -32600, and serves one of 10', async () => {
    const batch = Array.from({ length: MAX_BATCH_MESSAGES + 1 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i + 1,
      method: 'tools/list',
    }));
    const res = await post(batch);
    await expectTooLong(res);
    const ten = await post(batch.slice(0, MAX_BATCH_MESSAGES));
    expect(ten.status).to.equal(200);
    expect((await ten.json()) as Answer[]).to.have.length(MAX_BATCH_MESSAGES);
  });

  it('answers an empty batch with 400 and one -32600 error (JSON-RPC 2.0: "rpc call with an empty Array")', async () => {
    const res = await post([]);
    expect(res.status).to.equal(400);
    const answer = (await res.json()) as Omit<Answer, 'id'> & { id: null };
    expect(answer).to.deep.include({ jsonrpc: '2.0', id: null });
    expect(answer.error?.code).to.equal(-32600);
  });
});
