/**
 * An MCP tool call is one request of the access log and the request metric, as its REST route
 * is. The transport answers 200 whatever the tool answered; an audit found a write refused 503 on
 * a full disk logged and counted as 200 (and a 404 or 400 likewise), and no `store unavailable`
 * warning. README (Logs, metrics, shutdown): "the status of an MCP tool call is the tool's
 * (`_meta.status` of an error result), of a batch the worst (highest) one"; "A request answered
 * 503 because a store cannot serve … logs a `store unavailable` warning with the cause".
 */
import { expect } from 'chai';
import { type FeedbackHarness, type Maker, startFeedback } from '../feedback/support/harness.js';
import { fillDisk, freeDisk } from '../support/full-disk.js';
import { type LogLines, logLines } from '../support/log-lines.js';

const PRODUCT = 'MCPT';

describe('When MCP tool calls fail (access log, metrics, warnings)', function () {
  this.timeout(60_000);
  let fb: FeedbackHarness;
  let owner: Maker;
  let log: LogLines;
  let itemKey: string;

  before(async () => {
    log = logLines('info');
    fb = await startFeedback({ logger: log.logger, env: { LOG_LEVEL: 'info' } });
    owner = await fb.createMaker('mcp-ops@example.com');
    await fb.createProduct(owner.home, { key: PRODUCT, name: 'Ops', visibility: 'public' });
    ({ itemKey } = await fb.submit(owner.home, PRODUCT, { body: 'Dark mode please' }));
  });
  after(async () => {
    await fb?.stop();
  });

  /** one JSON-RPC POST to /mcp with its own correlation id */
  async function rpc(correlationId: string, body: unknown) {
    const res = await fetch(`${fb.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${owner.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-correlation-id': correlationId,
      },
      body: JSON.stringify(body),
    });
    const text = await res.text(); // a JSON-RPC response sent to the server is answered 202
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }
  const call = (id: number, name: string, args: Record<string, unknown>) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: args },
  });
  /** README: the access line carries a well-formed client id as `clientCorrelationId` */
  const accessLine = (clientId: string) =>
    log.find((l) => l.msg === 'request' && l.clientCorrelationId === clientId);
  /** the id the server gave the request the client called `clientId`, which its warnings carry */
  const serverIdOf = async (clientId: string) => (await accessLine(clientId))!.correlationId;
  const slugKey = () => ({ slug: owner.home.slug, key: PRODUCT });

  it('logs and counts a call refused on a full disk as 503, with the store unavailable warning', async () => {
    // the search budget's write is refused (test/platform/full-disk.e2e.test.ts), as any write
    // of a store that cannot serve
    fillDisk(fb.deps().readStore);
    try {
      const answer = await rpc(
        'mcp-full-disk-1',
        call(1, 'search_items', { ...slugKey(), q: 'dark mode' }),
      );
      expect(answer.status).to.equal(200);
      expect(answer.body.result).to.include({ isError: true });
      // REST's Retry-After: 5 (the store reconnects by itself) as `_meta.retryAfter`
      expect(answer.body.result._meta).to.deep.equal({ status: 503, retryAfter: 5 });
    } finally {
      freeDisk(fb.deps().readStore);
    }
    expect(await accessLine('mcp-full-disk-1')).to.include({
      operation: 'mcp:search_items',
      status: 503,
    });
    const serverId = await serverIdOf('mcp-full-disk-1');
    const warning = await log.find(
      (l) => l.msg === 'store unavailable' && l.correlationId === serverId,
    );
    expect(warning, 'no store unavailable warning').to.include({
      level: 'warn',
      operationId: 'search_items',
    });
    expect(warning!.cause).to.match(/full/);
    const metrics = await (await fetch(`${fb.url}/metrics`)).text();
    expect(metrics).to.match(/operation="mcp:search_items",method="POST",status="503"/);
  });

  it('logs and counts a missing item as 404 and a refused argument as 400, not 200', async () => {
    const missing = await rpc(
      'mcp-missing-1',
      call(2, 'get_item', { ...slugKey(), itemKey: `${PRODUCT}-999` }),
    );
    expect(missing.body.result._meta).to.deep.equal({ status: 404 });
    expect(await accessLine('mcp-missing-1')).to.include({
      operation: 'mcp:get_item',
      status: 404,
    });
    const invalid = await rpc(
      'mcp-invalid-1',
      call(3, 'update_item_status', { ...slugKey(), itemKey, status: 'no-such-status' }),
    );
    expect(invalid.body.result._meta).to.deep.equal({ status: 400 });
    expect(await accessLine('mcp-invalid-1')).to.include({
      operation: 'mcp:update_item_status',
      status: 400,
    });
    const metrics = await (await fetch(`${fb.url}/metrics`)).text();
    expect(metrics).to.match(/operation="mcp:get_item",method="POST",status="404"/);
    expect(metrics).to.match(/operation="mcp:update_item_status",method="POST",status="400"/);
  });

  it('logs a batch with the worst status of its calls', async () => {
    const answer = await rpc('mcp-batch-1', [
      call(4, 'get_item', { ...slugKey(), itemKey }),
      call(5, 'get_item', { ...slugKey(), itemKey: `${PRODUCT}-998` }),
    ]);
    expect(answer.body).to.have.length(2);
    expect(await accessLine('mcp-batch-1')).to.include({ operation: 'mcp', status: 404 });
  });

  /** the request metric's count for these labels (0 when the series does not exist yet) */
  async function requestCount(operation: string, status: number): Promise<number> {
    const text = await (await fetch(`${fb.url}/metrics`)).text();
    const labels = `operation="${operation}",method="POST",status="${status}"`;
    const line = text
      .split('\n')
      .find((l) => l.startsWith('http_request_duration_seconds_count{') && l.includes(labels));
    return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
  }

  it('logs and counts protocol errors as 404 (method not found) and 400 (invalid params), the client still getting 200', async () => {
    // README: "a JSON-RPC protocol error answered 200 with the status a REST route would
    // answer: 400 for … invalid params (an unknown tool, malformed arguments), 404 for a method
    // the server does not have"; the audit found them logged and counted as 200
    const notFound = await requestCount('mcp', 404);
    const invalid = await requestCount('mcp', 400);
    const unknownMethod = await rpc('mcp-no-method-1', {
      jsonrpc: '2.0',
      id: 10,
      method: 'resources/list',
    });
    expect(unknownMethod.status).to.equal(200);
    expect(unknownMethod.body.error.code).to.equal(-32601);
    expect(await accessLine('mcp-no-method-1')).to.include({ operation: 'mcp', status: 404 });

    const unknownTool = await rpc('mcp-no-tool-1', call(11, 'no_such_tool', {}));
    expect(unknownTool.status).to.equal(200);
    expect(unknownTool.body.error.code).to.equal(-32602);
    expect(await accessLine('mcp-no-tool-1')).to.include({ operation: 'mcp', status: 400 });

    const badParams = await rpc('mcp-bad-params-1', {
      jsonrpc: '2.0',
      id: 12,
      method: 'tools/call',
      params: { name: 'get_item', arguments: ['x'] },
    });
    expect(badParams.status).to.equal(200);
    expect(badParams.body.error.code).to.equal(-32602);
    expect(await accessLine('mcp-bad-params-1')).to.include({
      operation: 'mcp:get_item',
      status: 400,
    });

    expect(await requestCount('mcp', 404)).to.equal(notFound + 1);
    expect(await requestCount('mcp', 400)).to.equal(invalid + 1);
    expect(await requestCount('mcp:get_item', 400)).to.equal(1);
  });

  it('logs a call that succeeds with its REST status', async () => {
    await rpc('mcp-ok-1', call(6, 'get_item', { ...slugKey(), itemKey }));
    expect(await accessLine('mcp-ok-1')).to.include({ operation: 'mcp:get_item', status: 200 });
  });

  it('logs a request whose client left mid-body as 499, not as invalid JSON (400)', async () => {
    const { request } = await import('node:http');
    const body = JSON.stringify(call(7, 'get_item', { ...slugKey(), itemKey }));
    await new Promise<void>((resolve) => {
      const req = request(`${fb.url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${owner.token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': String(body.length),
          'x-correlation-id': 'mcp-aborted-1',
        },
      });
      req.on('error', () => resolve());
      req.on('close', () => resolve());
      req.write(body.slice(0, 10), () => setTimeout(() => req.destroy(), 100));
    });
    expect(await accessLine('mcp-aborted-1')).to.include({ operation: 'mcp', status: 499 });
  });

  it("quotes at most 200 characters of a client's message in a warning", async () => {
    // the SDK's error for a response to no request quotes the whole message it got
    const echoed = 'x'.repeat(100_000);
    await rpc('mcp-echo-1', { jsonrpc: '2.0', id: 424242, result: { echoed } });
    const serverId = await serverIdOf('mcp-echo-1');
    const warning = await log.find(
      (l) => l.msg === 'MCP request failed' && l.correlationId === serverId,
    );
    expect(warning, 'no warning').to.include({ level: 'warn' });
    expect(String(warning!.reason)).to.match(/unknown message ID/);
    expect(String(warning!.reason).length).to.be.below(300);
  });
});
