/**
 * Issue 18: "Per-webhook concurrency is bounded; one slow receiver never delays others."
 * A receiver that holds every request open next to one that answers at once. And the order of
 * one item's messages within that concurrency (README: "messages can arrive out of order when
 * retries are involved" — only then).
 */
import { expect } from 'chai';
import {
  hook,
  item,
  type Receiver,
  settle,
  startWorldWith,
  stopWorld,
  submit,
  subscribe,
  type World,
} from './support/world.js';

describe('A slow receiver beside a quick one (e2e)', () => {
  let world: World;
  let slow: Receiver;
  let quick: Receiver;
  let release: () => void = () => {};

  before(async () => {
    [world, slow, quick] = await startWorldWith(2, { env: { WEBHOOK_CONCURRENCY: '2' } });
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    slow.answer = () => ({ status: 204, hold: held });
  });
  after(async () => {
    release();
    await stopWorld(world, slow, quick);
  });

  it('keeps at most WEBHOOK_CONCURRENCY requests open at the slow one while the quick one gets everything', async () => {
    const slowHook = await subscribe(world, slow);
    const quickHook = await subscribe(world, quick);
    for (let i = 0; i < 6; i++) await submit(world, `Message ${i}`);
    await quick.until(6);
    await settle(world, quickHook.id);
    // the slow receiver has exactly two requests open, the rest wait their turn
    await slow.until(2);
    expect(slow.received).to.have.length(2);

    release();
    await slow.until(6);
    await settle(world, slowHook.id);
    expect(new Set(slow.received.map((r) => r.id)).size).to.equal(6);
  });
});

describe('Several messages of one item at a receiver that answers slowly (e2e)', () => {
  let world: World;
  let receiver: Receiver;
  /** when the receiver answered each message, by webhook-id */
  const answered = new Map<string, number>();

  before(async () => {
    [world, receiver] = await startWorldWith(1);
    receiver.answer = (request) => ({
      status: 204,
      hold: new Promise((resolve) => setTimeout(resolve, 120)).then(() => {
        answered.set(request.id, Date.now());
      }),
    });
  });
  after(() => stopWorld(world, receiver));

  it('sends the next message of an item only after the receiver answered the one before', async () => {
    await subscribe(world, receiver);
    const key = await submit(world, 'Sync the calendar both ways');
    const api = world.fb.api(world.owner.token);
    for (const status of ['planned', 'in-progress']) {
      expect((await api.post(`${item(key)}/status`, { status })).status).to.equal(200);
    }
    expect((await api.post(`${item(key)}/replies`, { body: 'Under way' })).status).to.equal(200);
    const requests = await receiver.until(4);
    const sequences = requests.map((r) => JSON.parse(r.body).data.sequence);
    expect(sequences).to.deep.equal([0, 1, 2, 3]);
    for (let k = 1; k < requests.length; k++) {
      await eventuallyAnswered(requests[k - 1]!.id);
      expect(requests[k]!.at, `message ${k} came before ${k - 1} was answered`).to.be.at.least(
        answered.get(requests[k - 1]!.id)!,
      );
    }
  });

  async function eventuallyAnswered(id: string): Promise<void> {
    for (let i = 0; i < 100 && !answered.has(id); i++) await new Promise((r) => setTimeout(r, 20));
  }
});

// README: "A webhook worker has at most `WEBHOOK_MAX_IN_FLIGHT` (256) in flight over all
// webhooks … past it further attempts wait their turn, still queued — not sent, and not counted
// as your receiver's failures"
describe('Two slow receivers with more places between them than WEBHOOK_MAX_IN_FLIGHT (e2e)', () => {
  let world: World;
  let one: Receiver;
  let two: Receiver;
  let release: () => void = () => {};

  before(async () => {
    [world, one, two] = await startWorldWith(2, {
      env: { WEBHOOK_CONCURRENCY: '2', WEBHOOK_MAX_IN_FLIGHT: '3' },
    });
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    one.answer = () => ({ status: 204, hold: held });
    two.answer = () => ({ status: 204, hold: held });
  });
  after(async () => {
    release();
    await stopWorld(world, one, two);
  });

  it('holds three requests open in all, then delivers every message once each, none failed', async () => {
    const hooks = [await subscribe(world, one), await subscribe(world, two)];
    for (let i = 0; i < 4; i++) await submit(world, `Message ${i}`);
    const open = () => one.received.length + two.received.length;
    for (let i = 0; i < 100 && open() < 3; i++) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 300)); // room for a fourth, were it let through
    expect(open(), 'requests open at both receivers').to.equal(3);

    release();
    await one.until(4);
    await two.until(4);
    for (const { id } of hooks) await settle(world, id);
    for (const { id } of hooks) {
      const { body } = await world.fb.api(world.owner.token).get(`${hook(id)}/deliveries`);
      expect(
        body.items.map((d: { status: string; attemptCount: number }) => d.attemptCount),
      ).to.deep.equal([1, 1, 1, 1]);
    }
  });
});
