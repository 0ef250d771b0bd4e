/**
 * Issue 18: "Per-webhook concurrency is bounded; one slow receiver never delays others."
 * A receiver that holds every request open next to one that answers at once.
 */
import { expect } from 'chai';
import {
  type Receiver,
  settle,
  startReceiver,
  startWorld,
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
    world = await startWorld({ env: { WEBHOOK_CONCURRENCY: '2' } });
    slow = await startReceiver();
    quick = await startReceiver();
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    slow.answer = () => ({ status: 204, hold: held });
  });
  after(async () => {
    release();
    await world.fb.stop();
    await slow.close();
    await quick.close();
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
