/**
 * Places held in several limits at once before acting (src/limits/holds.ts), over a real store:
 * "every place is reserved; when any is refused, those held are given back and the request costs
 * nothing", and a settle counts what happened — all, none, or as many of a count as happened
 * (recover_webhook queues what another recover left it).
 */
import { expect } from 'chai';
import { createLimits, holdAll, type Limiter } from '../../src/limits/index.js';
import { openTestStores, type TestStores } from '../support/stores.js';

describe('When places are held in several limits at once', () => {
  let stores: TestStores;
  const now = 1_000_000;
  let window: Limiter;
  let bucket: Limiter;
  beforeEach(async () => {
    stores = await openTestStores();
    const limits = createLimits({ readStore: stores.readStore, now: () => now });
    window = limits.limiter('window', { kind: 'sliding-window', max: 4, windowSeconds: 60 });
    bucket = limits.limiter('bucket', {
      kind: 'token-bucket',
      capacity: 2,
      refillEverySeconds: 3600,
    });
  });
  afterEach(() => stores.cleanup());

  const remaining = async (limiter: Limiter, key: string) => {
    const verdict = await limiter.peek(key);
    return verdict.allowed ? verdict.remaining : 0;
  };

  it('holds in all or none: 6 together pass the bucket 2 times, and the window counts only those', async () => {
    const holds = await Promise.all(
      Array.from({ length: 6 }, () =>
        holdAll([
          [window, 'ip'],
          [bucket, 'item'],
        ]),
      ),
    );
    const held = holds.filter((h) => h.status === 'held');
    expect(held).to.have.length(2);
    await Promise.all(held.map((h) => h.status === 'held' && h.settle(true)));
    expect(await remaining(window, 'ip')).to.equal(2);
    expect(await remaining(bucket, 'item')).to.equal(0);
  });

  it('gives every place back when the action did not happen, and keeps a kept one', async () => {
    const hold = await holdAll([
      [window, 'ip', 'kept'],
      [bucket, 'item'],
    ]);
    expect(hold.status).to.equal('held');
    if (hold.status === 'held') await hold.settle(false);
    expect(await remaining(window, 'ip')).to.equal(3);
    expect(await remaining(bucket, 'item')).to.equal(2);
  });

  it('counts as many of a count as happened, giving the rest back', async () => {
    const hold = await holdAll([[window, 'ip']], 3);
    expect(hold.status).to.equal('held');
    if (hold.status === 'held') await hold.settle(1);
    expect(await remaining(window, 'ip')).to.equal(3);
  });
});
