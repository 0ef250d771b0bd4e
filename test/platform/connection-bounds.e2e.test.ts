/**
 * What one connection may hold (security audit: 100 sockets that never read their answers held
 * 2.7 GB for as long as they stayed open; 50 that never sent a byte were never closed; a request
 * trickled a byte at a time was answered "400 could not be parsed"). README, "Limits": a
 * connection on which nothing moves for HTTP_IDLE_TIMEOUT_MS is closed, a request must arrive
 * whole within it (408 otherwise), and a process holds at most HTTP_MAX_CONNECTIONS.
 */
import { connect, type Socket } from 'node:net';
import { expect } from 'chai';
import { type FeedbackHarness, startFeedback } from '../feedback/support/harness.js';

const IDLE_MS = 1000;
const MOST = 12;

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Milliseconds until the server closes `socket` (the client never closes it first). */
function closedAfter(socket: Socket): Promise<number> {
  const started = performance.now();
  return new Promise((resolve) => {
    socket.on('error', () => undefined);
    socket.once('close', () => resolve(performance.now() - started));
    socket.resume();
  });
}

describe('What one connection may hold (e2e)', function () {
  this.timeout(30_000);
  let fb: FeedbackHarness;
  let port: number;

  before(async () => {
    const env = {
      HTTP_IDLE_TIMEOUT_MS: String(IDLE_MS),
      PROJECTION_WAIT_MS: '100',
      HTTP_MAX_CONNECTIONS: String(MOST),
    };
    fb = await startFeedback({ env });
    port = Number(new URL(fb.url).port);
  });
  after(() => fb.stop());

  it('closes a connection that never sends a byte', async () => {
    const waited = await closedAfter(await open(port));
    expect(waited).to.be.within(IDLE_MS - 100, IDLE_MS + 2000);
  });

  it('answers 408 to a request that does not arrive whole in time, trickled as it may be', async () => {
    const socket = await open(port);
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const trickle = setInterval(() => socket.write('X-Slow: 1\r\n'), 150);
    await closedAfter(socket);
    clearInterval(trickle);
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).to.match(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(body!)).to.deep.equal({
      error: 'the request did not arrive in time; send it again',
      code: 'invalid-argument',
    });
  });

  it('closes a connection whose client stops reading, instead of holding its answers', async () => {
    const one = await fetch(`${fb.url}/v1/openapi.json`);
    const size = (await one.arrayBuffer()).byteLength;
    const asked = Math.ceil(32_000_000 / size);
    const socket = await open(port);
    socket.pause();
    socket.write('GET /v1/openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'.repeat(asked));
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS * 3));
    let received = 0;
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
    });
    await closedAfter(socket);
    expect(received, `of ${asked} answers of ${size} bytes`).to.be.below(asked * size);
  });

  it('refuses connections past HTTP_MAX_CONNECTIONS, and serves again once they close', async () => {
    const held = await Promise.all(Array.from({ length: MOST }, () => open(port)));
    const extra = await open(port);
    expect(await closedAfter(extra), 'the one past the most, closed at once').to.be.below(500);
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await fetch(`${fb.url}/healthz`)).status).to.equal(200);
  });
});
