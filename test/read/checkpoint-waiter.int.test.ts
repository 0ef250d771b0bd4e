/**
 * Read-your-writes in an API process without projectors (issue 13 item 3): one watcher per
 * process reads the checkpoints for all waiting requests, instead of one poll loop each.
 */
import { expect } from 'chai';
import { createCheckpointWaiter } from '../../src/read/checkpoint-waiter.js';
import { ProjectionTimeout } from '../../src/read/waiters.js';
import type { ReadStore } from '../../src/readstore/types.js';
import { steppableWallClock } from '../support/wall-clock.js';
import { openTestStores, type TestStores } from '../support/stores.js';

describe('The checkpoint waiter (integration)', () => {
  let stores: TestStores;
  let reads = 0;
  let counted: ReadStore;
  beforeEach(async () => {
    stores = await openTestStores();
    reads = 0;
    const store = stores.readStore;
    counted = Object.assign(Object.create(store), {
      checkpoints: () => {
        reads++;
        return store.checkpoints();
      },
    });
  });
  afterEach(() => stores.cleanup());

  const reach = (a: bigint, b: bigint) =>
    stores.readStore.flush(
      new Map([
        ['items', a],
        ['people', b],
      ]),
    );

  it('answers every waiter once the slowest projector reached its position, with one read per poll for all of them', async () => {
    const waiter = createCheckpointWaiter(counted, ['items', 'people'], { pollMs: 20 });
    const done: number[] = [];
    const waits = Array.from({ length: 50 }, (_, i) =>
      waiter.waitFor(BigInt(1 + (i % 5)), 5_000).then(() => done.push(i)),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(done).to.have.length(0);
    await reach(5n, 3n);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // positions 1 to 3 are reached by both projectors; 4 and 5 wait for `people`
    expect(done).to.have.length(30);
    await reach(5n, 5n);
    await Promise.all(waits);
    // 50 waiters over ~250 ms of polling: a handful of reads, not 50 per poll
    expect(reads).to.be.below(30);
  });

  it('answers ProjectionTimeout past the timeout, and at once for a position already reached', async () => {
    const waiter = createCheckpointWaiter(counted, ['items'], { pollMs: 10 });
    const started = Date.now();
    const error = await waiter.waitFor(7n, 150).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(ProjectionTimeout);
    expect(Date.now() - started).to.be.within(140, 1_000);
    await reach(9n, 9n);
    await waiter.waitFor(9n, 1_000);
    const before = reads;
    await waiter.waitFor(8n, 1_000);
    expect(reads).to.equal(before);
  });

  it('times its waits on the monotonic clock: a step of the wall clock neither cuts one short nor stretches it', async () => {
    // time audit: stepped forward 60 s, a 10 s wait answered 503 after 26 ms; stepped back an
    // hour, a 300 ms wait went on for the hour
    const clock = steppableWallClock();
    try {
      const waiter = createCheckpointWaiter(counted, ['items'], { pollMs: 10 });
      const ahead = waiter.waitFor(7n, 5_000);
      clock.step(60_000);
      await new Promise((resolve) => setTimeout(resolve, 60));
      await reach(7n, 7n);
      await ahead;
      const behind = waiter.waitFor(20n, 150).catch((e: unknown) => e);
      clock.step(-3_600_000);
      const outcome = await Promise.race([
        behind,
        new Promise((resolve) => setTimeout(() => resolve('still waiting'), 1_500)),
      ]);
      expect(outcome).to.be.instanceOf(ProjectionTimeout);
    } finally {
      clock.restore();
    }
  });
});
