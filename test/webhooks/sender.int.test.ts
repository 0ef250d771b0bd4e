/**
 * One attempt over real HTTP to a receiver on 127.0.0.1 (sender.ts): "within 15 seconds from
 * connect to the last byte read … Of the answer only the status, Retry-After and the first
 * kilobyte of the body (the delivery log's excerpt) are kept; reading stops at 64 KiB." The
 * attempt's 15 s are attempt.ts's; here the sender gets a short time of its own.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { createSender, EXCERPT_BYTES } from '../../src/webhooks/delivery/sender.js';
import { checkTarget } from '../../src/webhooks/delivery/target.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

describe('When one webhook attempt is sent (real HTTP)', () => {
  let server: Server;
  let handle: Handler = (_req, res) => res.writeHead(204).end();
  const sender = createSender();
  const open = new Set<ServerResponse>();

  before(async () => {
    server = createServer((req, res) => {
      open.add(res);
      req.resume();
      req.on('end', () => handle(req, res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterEach(() => {
    for (const res of open) res.destroy();
    open.clear();
  });
  after(async () => {
    sender.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const send = async (timeoutMs: number, by = sender) => {
    const { port } = server.address() as AddressInfo;
    const target = await checkTarget(`http://127.0.0.1:${port}/hooks`, { allowPrivate: true });
    return by.send({
      target,
      headers: { 'content-type': 'application/json' },
      body: '{}',
      timeoutMs,
    });
  };

  it('gives up when no answer comes within its time: no status, the reason as the error', async () => {
    handle = () => {}; // holds the request open, never answers
    const answer = await send(2000);
    expect(answer).to.include({
      status: null,
      excerpt: null,
      error: 'no complete answer within 2 s',
    });
    // not sooner, nor much later (room for a busy machine, not for twice the time)
    expect(answer.durationMs).to.be.within(1900, 3900);
  });

  it('on a stop, cuts the attempt in flight at once and sends nothing after: both answer "stopped"', async () => {
    // sender.ts: "end the attempts in flight now; they, and any sent after, answer `stopped`"
    let arrived = 0;
    handle = () => {
      arrived += 1; // and holds it open
    };
    const stopping = createSender();
    const inFlight = send(15_000, stopping);
    while (arrived === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    stopping.close();
    const cut = await inFlight;
    expect(cut).to.include({ status: null, stopped: true });
    expect(cut.durationMs, 'cut by the stop, not by the time limit').to.be.below(5000);
    const after = await send(15_000, stopping);
    expect(after).to.include({ status: null, stopped: true });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(arrived, 'requests the receiver got').to.equal(1);
  });

  it('keeps the first kilobyte of a large answer, cut at a character, and stops reading at 64 KiB', async () => {
    handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      // 120 kB of three-byte characters, and the answer is never ended
      res.write('€'.repeat(40_000));
    };
    const answer = await send(10_000);
    expect(answer).to.include({ status: 200, error: null });
    // 341 × 3 = 1023 bytes: the 342nd character does not fit whole into EXCERPT_BYTES
    expect(EXCERPT_BYTES).to.equal(1024);
    expect(answer.excerpt).to.equal('€'.repeat(341));
    expect(answer.durationMs, 'answered without waiting for the time to run out').to.be.below(5000);
  });
});
