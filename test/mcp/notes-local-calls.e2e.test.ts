/**
 * What the local notes MCP server (stdio, a thin client of the HTTP API) sends for a call, and
 * what it answers when it cannot send one: the same answer as the hosted server's for the same
 * call, never another operation's and never a protocol error for a failed operation.
 *
 * Spec 001: "Both a hosted and a local MCP server are thin wrappers over this API." README: "A
 * failed operation is a tool result with `isError: true` whose text is the service's error
 * envelope … protocol problems (unknown tool, malformed request) stay JSON-RPC errors."
 */
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { expect } from 'chai';
import { startFeedback } from '../feedback/support/harness.js';
import { type NotesE2e, type SignedIn, startNotesE2e } from '../notes/e2e/support.js';
import { callTool, type Connected, connectLocal, connectMcp, envelopeOf } from './support.js';

/** A base URL nothing listens at: a port the system just handed out and took back. */
async function deadBase(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

describe('When an assistant calls the local notes MCP server', function () {
  this.timeout(120_000);
  let notes: NotesE2e;
  let ann: SignedIn;
  let local: Connected;
  let hosted: Connected;

  before(async () => {
    notes = await startNotesE2e();
    ann = await notes.signIn('ann@example.com');
    local = await connectLocal(notes.base, ann.token);
    hosted = await connectMcp(`${notes.base}/mcp`, { token: ann.token });
  });
  after(async () => {
    await local?.close();
    await hosted?.close();
    await notes?.stop();
  });

  it('answers an id "." or ".." as the hosted server does (404), never running another operation', async () => {
    const api = notes.api(ann.token);
    const note = (await api('POST', '/v1/notes', { content: 'Keep my tag', tags: ['keep'] })).body;
    const tagId: string = note.tags[0].id;
    // `..` is resolved away by the URL parser: DELETE /v1/notes/../tags/{tagId} is delete_tag
    const removed = await callTool(local, 'remove_note_tag', { id: '..', tagId });
    expect(removed._meta?.status, JSON.stringify(removed)).to.equal(404);
    expect(envelopeOf(removed)).to.have.keys('error');
    expect((await api('GET', `/v1/tags/${tagId}`)).body.deletedAt, 'the tag is not deleted').to.be
      .null;
    expect(
      (await api('GET', `/v1/notes/${note.id}`)).body.tags.map((t: { id: string }) => t.id),
    ).to.deep.equal([tagId]);
    // `.` is dropped: GET /v1/notes/. is list_notes, GET /v1/devices/. is list_devices
    for (const [name, id] of [
      ['get_note', '.'],
      ['get_note', '..'],
      ['get_device', '.'],
      ['delete_note', '.'],
    ] as const) {
      const answer = await callTool(local, name, { id });
      expect(answer._meta?.status, `${name} ${id}: ${JSON.stringify(answer)}`).to.equal(404);
      expect(envelopeOf(answer).error).to.include(`"${id}"`);
    }
    const hostedAnswer = await callTool(hosted, 'get_note', { id: '.' });
    expect(hostedAnswer._meta?.status).to.equal(404);
  });

  it('refuses an id that is not a string in the hosted server\'s words, rather than sending "123"', async () => {
    const note = (await notes.api(ann.token)('POST', '/v1/notes', { content: 'By id only' })).body;
    for (const id of [123, true, null, [note.id], { id: note.id }]) {
      const there = await callTool(hosted, 'get_note', { id });
      const here = await callTool(local, 'get_note', { id });
      expect(there._meta?.status, JSON.stringify(id)).to.equal(400);
      expect(here._meta?.status, `${JSON.stringify(id)}: ${JSON.stringify(here)}`).to.equal(400);
      expect(envelopeOf(here), JSON.stringify(id)).to.deep.equal(envelopeOf(there));
    }
  });

  it('refuses null and mistyped query arguments as the hosted server does (same status, same words), rather than dropping them or sending them as text', async () => {
    // spec 001: "Both a hosted and a local MCP server are thin wrappers over this API" — one
    // call, one answer: `limit: null` was sent as no limit (a whole page), `q: 5` as the text "5"
    await notes.api(ann.token)('POST', '/v1/notes', {
      content: 'Typed arguments',
      tags: ['typed'],
    });
    const calls: [string, Record<string, unknown>][] = [
      ['list_notes', { limit: null }],
      ['list_notes', { pageToken: null }],
      ['list_notes', { includeDeleted: null }],
      ['list_notes', { limit: { n: 5 } }],
      ['list_notes', { limit: true }],
      ['list_notes', { limit: null, includeDeleted: 1 }],
      ['list_notes', { limit: 0 }],
      ['list_notes', { limit: 'many' }],
      ['list_tags', { includeDeleted: null }],
      ['list_tags', { includeDeleted: 1 }],
      ['search_notes', { q: 5 }],
      ['search_notes', { q: null }],
      ['search_notes', { q: 'typed', limit: null }],
    ];
    for (const [name, args] of calls) {
      const what = `${name} ${JSON.stringify(args)}`;
      const there = await callTool(hosted, name, args);
      const here = await callTool(local, name, args);
      expect(there._meta?.status, `hosted ${what}: ${JSON.stringify(there)}`).to.equal(400);
      expect(here._meta?.status, `local ${what}: ${JSON.stringify(here)}`).to.equal(400);
      expect(envelopeOf(here), what).to.deep.equal(envelopeOf(there));
    }
    // what the hosted server takes, the local one sends as before: numbers and booleans as text
    for (const [name, args] of [
      ['list_notes', { limit: '1', includeDeleted: 'true' }],
      ['list_notes', { limit: 1, includeDeleted: true }],
      ['search_notes', { q: 'typed', limit: 1 }],
    ] as const) {
      const here = await callTool(local, name, args);
      expect(here.isError, `${name} ${JSON.stringify(args)}: ${JSON.stringify(here)}`).to.not.equal(
        true,
      );
    }
  });

  it('refuses a _meta value no header can carry (400, naming it) rather than blaming the service, as the hosted server refuses it', async () => {
    const api = notes.api(ann.token);
    const before = (await api('GET', '/v1/notes?limit=100')).body.notes.length;
    // README: "Per-call `_meta` carries what REST takes in headers: `idempotencyKey` … and `ifMatch`"
    for (const idempotencyKey of ['a\nb', '\u{1F642}']) {
      const there = await callTool(hosted, 'create_note', { content: 'k' }, { idempotencyKey });
      const here = await callTool(local, 'create_note', { content: 'k' }, { idempotencyKey });
      expect(there._meta?.status).to.equal(400);
      expect(here._meta?.status, JSON.stringify(here)).to.equal(400);
      expect(envelopeOf(here).error).to.include('_meta.idempotencyKey');
    }
    expect((await api('GET', '/v1/notes?limit=100')).body.notes.length, 'nothing created').to.equal(
      before,
    );
    const note = (await api('POST', '/v1/notes', { content: 'Unchanged' })).body;
    const stale = await callTool(
      local,
      'update_note',
      { id: note.id, content: 'Changed' },
      { ifMatch: '"0"\r\nX-Other: 1' },
    );
    expect(stale._meta?.status, JSON.stringify(stale)).to.equal(400);
    expect(envelopeOf(stale).error).to.include('_meta.ifMatch');
    expect((await api('GET', `/v1/notes/${note.id}`)).body.content).to.equal('Unchanged');
    // a read takes no key, on either server: it is not sent, so it cannot be refused
    const read = await callTool(local, 'get_note', { id: note.id }, { idempotencyKey: 'a\nb' });
    expect(read.isError, JSON.stringify(read)).to.not.equal(true);
    expect(
      (await callTool(hosted, 'get_note', { id: note.id }, { idempotencyKey: 'a\nb' })).isError,
    ).to.not.equal(true);
  });

  it('answers a call while the service cannot be reached as an error result naming it, not a protocol error', async () => {
    const base = await deadBase();
    const offline = await connectLocal(base, ann.token);
    try {
      const result = await callTool(offline, 'list_notes', {});
      expect(result.isError, JSON.stringify(result)).to.equal(true);
      expect(result._meta?.status).to.equal(503);
      expect(envelopeOf(result).error).to.include(base);
    } finally {
      await offline.close();
    }
  });

  it('says NOTES_BASE_URL is not a notes service when it points at the feedback board, rather than serving its tools or "cannot read"', async () => {
    // README: NOTES_BASE_URL is "the notes service". The board answers /docs/json 404 (it serves
    // its document at /v1/openapi.json); a server that serves the board's document at
    // /docs/json (a proxy, a board of another build) had its tools served, each call then 401
    const fb = await startFeedback();
    const boardDocs = createHttpServer(async (_req, res) => {
      const docs = await fetch(`${fb.url}/v1/openapi.json`);
      res.setHeader('content-type', 'application/json');
      res.end(await docs.text());
    });
    await new Promise<void>((resolve) => boardDocs.listen(0, '127.0.0.1', resolve));
    const proxied = `http://127.0.0.1:${(boardDocs.address() as { port: number }).port}`;
    try {
      for (const base of [fb.url, proxied]) {
        const wrong = await connectLocal(base, ann.token);
        try {
          const said = `the service at ${base} is not a notes service`;
          const result = await callTool(wrong, 'list_notes', {});
          expect(result._meta?.status, JSON.stringify(result)).to.equal(503);
          expect(envelopeOf(result).error, base).to.include(said).and.include('NOTES_BASE_URL');
          // a board tool is not offered either: the same answer, not the board's 401
          const board = await callTool(wrong, 'list_workspaces', {});
          expect(board._meta?.status, JSON.stringify(board)).to.equal(503);
          expect(envelopeOf(board).error).to.include(said);
          const listed = await wrong.client.listTools().catch((error: Error) => error);
          expect(listed, `tools/list at ${base}`).to.be.instanceOf(Error);
          expect((listed as Error).message).to.include(said);
        } finally {
          await wrong.close();
        }
      }
    } finally {
      await new Promise<void>((resolve) => boardDocs.close(() => resolve()));
      await fb.stop();
    }
  });

  it('answers a call the service does not answer in time as an error result (504), not a wait without end', async () => {
    // the service's tools are read, then every operation hangs: a stalled service, a lost proxy
    const held: import('node:http').ServerResponse[] = [];
    const hanging = createHttpServer(async (req, res) => {
      if (req.url !== '/docs/json') return void held.push(res);
      const docs = await fetch(`${notes.base}/docs/json`);
      res.setHeader('content-type', 'application/json');
      res.end(await docs.text());
    });
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(hanging.address() as { port: number }).port}`;
    const stalled = await connectLocal(base, ann.token, { NOTES_MCP_TIMEOUT_MS: '300' });
    try {
      const started = performance.now();
      const result = await callTool(stalled, 'create_note', { content: 'lost?' });
      expect(result.isError, JSON.stringify(result)).to.equal(true);
      expect(result._meta?.status).to.equal(504);
      expect(envelopeOf(result).error).to.include(
        `the service at ${base} did not answer within 0.3 s`,
      );
      expect(held, 'the call reached the service').to.have.length(1);
      expect(performance.now() - started, 'answered after the timeout, not the host’s').to.be.below(
        10_000,
      );
    } finally {
      await stalled.close();
      for (const res of held) res.destroy();
      hanging.closeAllConnections();
      await new Promise<void>((resolve) => hanging.close(() => resolve()));
    }
  });
});
