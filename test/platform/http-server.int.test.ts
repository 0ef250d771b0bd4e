/**
 * Whose idleness closes a connection (src/platform/http-server.ts). README, "Connections": "A
 * connection on which nothing moves for HTTP_IDLE_TIMEOUT_MS is closed: a client that never
 * sends a byte, or stops reading its answers … A request the service is still working on does not
 * make its connection idle (an MCP batch of ten writes may each wait PROJECTION_WAIT_MS), up to
 * ten times the bound." The attack audit's fix had cut such a batch after 60 s of silent work.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { expect } from 'chai';
import { listenWhileBooting, WORKING_IDLE_BOUNDS } from '../../src/platform/http-server.js';

const IDLE_MS = 300;

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function serving(handler: Handler): Promise<{ server: Server; port: number }> {
  const { server, serve } = await listenWhileBooting(0, '127.0.0.1', {
    idleTimeoutMs: IDLE_MS,
    maxConnections: 10,
  });
  serve({ app: handler, onClientError: (_error, socket) => void socket.destroy() });
  return { server, port: (server.address() as { port: number }).port };
}

/** Sends one GET; resolves with what arrived before the server closed, and when it closed. */
function exchange(port: number, options: { read?: boolean } = {}) {
  return new Promise<{ answer: string; closedAfterMs: number }>((resolve) => {
    const started = performance.now();
    let answer = '';
    const socket: Socket = connect(port, '127.0.0.1', () => {
      socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      // a client that stops reading; it reads again (and so sees the close) only after a while
      if (options.read === false) {
        socket.pause();
        setTimeout(() => socket.resume(), IDLE_MS * 4);
      }
    });
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    socket.on('error', () => undefined);
    socket.once('close', () => resolve({ answer, closedAfterMs: performance.now() - started }));
  });
}

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('When the service works on a request longer than the idle bound', function () {
  this.timeout(20_000);
  let server: Server | undefined;
  afterEach(() => {
    server?.closeAllConnections();
    server?.close();
  });

  it('answers it: silence while the service works is not the client idling', async () => {
    ({ server } = await serving(async (_req, res) => {
      await later(IDLE_MS * 4);
      res.setHeader('Connection', 'close');
      res.end('done');
    }));
    const { answer } = await exchange((server.address() as { port: number }).port);
    expect(answer).to.match(/^HTTP\/1\.1 200 /);
    expect(answer.endsWith('done')).to.equal(true);
  });

  it(`cuts it after ${WORKING_IDLE_BOUNDS} idle bounds of silent work`, async () => {
    ({ server } = await serving(() => undefined));
    const { answer, closedAfterMs } = await exchange((server.address() as { port: number }).port);
    expect(answer).to.equal('');
    expect(closedAfterMs).to.be.within(
      WORKING_IDLE_BOUNDS * IDLE_MS,
      (WORKING_IDLE_BOUNDS + 3) * IDLE_MS,
    );
  });

  it('still cuts a client that stops reading the answer', async () => {
    const big = Buffer.alloc(64 * 1024 * 1024, 'x');
    ({ server } = await serving((_req, res) => {
      res.end(big);
    }));
    const { answer, closedAfterMs } = await exchange((server.address() as { port: number }).port, {
      read: false,
    });
    expect(answer.length).to.be.below(big.length);
    expect(closedAfterMs).to.be.below((WORKING_IDLE_BOUNDS - 2) * IDLE_MS);
  });

  it('still closes a connection that sends nothing', async () => {
    ({ server } = await serving((_req, res) => res.end('never asked')));
    const closedAfterMs = await new Promise<number>((resolve) => {
      const started = performance.now();
      const socket = connect((server!.address() as { port: number }).port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.once('close', () => resolve(performance.now() - started));
    });
    expect(closedAfterMs).to.be.within(IDLE_MS - 50, IDLE_MS * 4);
  });
});
