/**
 * The harness's fixed-port restart (test/support/runtime.ts, ports.ts). A test whose tokens must
 * survive a restart listens on the same port after it (the base URL is the OAuth issuer); under
 * load another process took that port between the stop and the start and the restart failed with
 * EADDRINUSE (test/auth/full-disk-grants). The port is chosen outside the ephemeral range, where
 * no connection takes one by itself, and a bind of it again waits out a holder that lets go.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { expect } from 'chai';
import { type FeedbackHarness, startFeedback } from '../feedback/support/harness.js';
import { freePort } from './ports.js';

const ephemeralStart = () =>
  Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);

describe('When a test restarts its service on a fixed port', function () {
  this.timeout(60_000);
  let fb: FeedbackHarness;
  before(async () => {
    fb = await startFeedback({ fixedPort: true });
  });
  after(() => fb.stop());

  it('picks ports below the kernel’s ephemeral range, which outgoing connections take from', async function () {
    let start: number;
    try {
      start = ephemeralStart();
    } catch {
      return this.skip();
    }
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) expect(port).to.be.within(10_000, start - 1);
    expect(Number(new URL(fb.url).port)).to.be.within(10_000, start - 1);
  });

  it('starts again on the same port when another listener held it for a moment after the stop', async () => {
    const port = Number(new URL(fb.url).port);
    const runtime = fb.runtime.runtime;
    const stop = runtime.stop.bind(runtime);
    let held: Server | undefined;
    runtime.stop = async () => {
      const stopped = await stop();
      const holder = createServer();
      await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
      held = holder;
      // longer than a start takes to reach its bind, shorter than bindAgain waits (10 s)
      setTimeout(() => holder.close(), 4_000);
      return stopped;
    };
    await fb.restart();
    expect(held, 'the port was held after the stop').to.not.equal(undefined);
    expect(new URL(fb.url).port).to.equal(String(port));
    expect((await fetch(`${fb.url}/healthz`)).status).to.equal(200);
  });
});
