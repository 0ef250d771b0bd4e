/**
 * README: "Each webhook has at most `WEBHOOK_CONCURRENCY` (8) attempts in flight; one slow
 * receiver never slows another." Receivers often share a host and port (a hosted function
 * platform, an integration hub, one company's gateway): one workspace's receivers that hold
 * every request open must not take the connections another webhook's attempts to that same
 * host need. The attack: eight webhooks at a host that never answers, eight items, so 64
 * requests held open — the sender's pool per host was 64 sockets, and the ninth webhook's
 * attempts waited behind them until its own 15 s ran out and counted as its receiver's failure.
 */
import { expect } from 'chai';
import {
  eventually,
  type Receiver,
  startWorldWith,
  stopWorld,
  submit,
  subscribe,
  type World,
} from './support/world.js';

const SLOW_HOOKS = 8;
const ITEMS = 8;

describe('Slow receivers and a quick one on the same host and port (e2e)', () => {
  let world: World;
  let host: Receiver;
  let release: () => void = () => {};

  before(async () => {
    [world, host] = await startWorldWith(1);
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    host.answer = (request) =>
      request.path.startsWith('/slow/') ? { status: 204, hold: held } : { status: 204 };
  });
  after(async () => {
    release();
    await stopWorld(world, host);
  });

  it('delivers to the quick one while the slow ones hold WEBHOOK_CONCURRENCY requests each', async () => {
    const origin = new URL(host.url).origin;
    const at = (prefix: string) => host.received.filter((r) => r.path.startsWith(prefix));
    for (let i = 0; i < SLOW_HOOKS; i++) await subscribe(world, `${origin}/slow/${i}`);
    for (let i = 0; i < ITEMS; i++) await submit(world, `Held ${i}`);
    await eventually(
      async () => at('/slow/').length === SLOW_HOOKS * ITEMS,
      'every slow lane to hold its WEBHOOK_CONCURRENCY requests',
    );
    await subscribe(world, `${origin}/quick`);
    await submit(world, 'While the slow ones hold');
    await eventually(
      async () => at('/quick').length === 1,
      'the quick receiver to get its message while 64 requests are held at its host',
      5_000,
    );
    // the new item's messages to the slow receivers wait in their own lanes
    expect(at('/slow/')).to.have.length(SLOW_HOOKS * ITEMS);
  });
});
