/**
 * The store-backed limiter: issue 10 item 1 "kept in the store so several API processes share
 * them". Two limiter sets over one store stand in for two processes.
 */
import { expect } from 'chai';
import {
  createLimits,
  LIMITS_COLLECTION,
  longestWait,
  type Policy,
} from '../../src/limits/index.js';
import { heldReads } from '../support/held-reads.js';
import { openTestStores, type TestStores } from '../support/stores.js';

const WINDOW: Policy = { kind: 'sliding-window', max: 5, windowSeconds: 900 };

describe('When two processes share the limits in one store', () => {
  let stores: TestStores;
  let now = 1_000_000;
  beforeEach(async () => {
    stores = await openTestStores();
  });
  afterEach(() => stores.cleanup());

  it('counts their takes together and never lets more than the limit through', async () => {
    const a = createLimits({ readStore: stores.readStore, now: () => now }).limiter(
      'codes',
      WINDOW,
    );
    const b = createLimits({ readStore: stores.readStore, now: () => now }).limiter(
      'codes',
      WINDOW,
    );
    const verdicts = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).take('ann@example.com')),
    );
    expect(verdicts.filter((v) => v.allowed)).to.have.length(5);
    expect((await a.peek('ann@example.com')).allowed).to.equal(false);
    expect((await a.peek('bob@example.com')).allowed).to.equal(true);
  });

  it('lets a burst of takes of one key in one process spend exactly the bucket, none refused for contention', async () => {
    // issue 17's hot spot: fifty submissions to one product resuming in the same turn all take
    // from the product's bucket; each must be judged on the count, not lose a race 8 times
    const bucket: Policy = { kind: 'token-bucket', capacity: 60, refillEverySeconds: 3600 };
    const limiter = createLimits({ readStore: stores.readStore, now: () => now }).limiter(
      'product',
      bucket,
    );
    const verdicts = await Promise.all(Array.from({ length: 70 }, () => limiter.take('DUO')));
    expect(verdicts.slice(0, 60).every((v) => v.allowed)).to.equal(true);
    expect(verdicts.slice(60).every((v) => !v.allowed)).to.equal(true);
  });

  it('keeps the count across a restart and stores no key in clear', async () => {
    const limiter = createLimits({ readStore: stores.readStore, now: () => now }).limiter(
      'codes',
      WINDOW,
    );
    for (let i = 0; i < 5; i++) await limiter.take('ann@example.com');
    await stores.reopen();
    const again = createLimits({ readStore: stores.readStore, now: () => now }).limiter(
      'codes',
      WINDOW,
    );
    expect(await again.take('ann@example.com')).to.deep.equal({
      allowed: false,
      retryAfterSeconds: 900,
    });
    const docs = await stores.readStore.collection('rate_limits').find({});
    expect(JSON.stringify(docs)).not.to.include('ann@example.com');
    now += 900_000;
    expect((await again.take('ann@example.com')).allowed).to.equal(true);
  });

  // store.ts: "a compare-and-set on the document's `rev`: two processes taking at once cannot
  // both spend the last unit" — both read the state before either writes
  it('lets only one of two processes that read the same state at once spend the last unit', async () => {
    const reads = heldReads();
    const readStore = await reads.open();
    try {
      const [a, b] = [1, 2].map(() =>
        createLimits({ readStore, now: () => now }).limiter('codes', WINDOW),
      );
      for (let i = 0; i < 4; i++) await a!.take('ann@example.com');
      const held = reads.hold(LIMITS_COLLECTION, 2);
      const takes = Promise.all([a!.take('ann@example.com'), b!.take('ann@example.com')]);
      for (const go of await held) go();
      expect((await takes).filter((v) => v.allowed)).to.have.length(1);
    } finally {
      await readStore.close();
      reads.remove();
    }
  });

  it('refuses a second limiter of the same name: the name prefixes the stored keys', () => {
    const limits = createLimits({ readStore: stores.readStore, now: () => now });
    limits.limiter('codes', WINDOW);
    expect(() => limits.limiter('codes', WINDOW)).to.throw(/two limiters are named codes/);
  });
});

// store.ts: "The longest wait among refusals, or null when every verdict allows" — a client told
// the shorter wait of two refusing limits is refused again when it comes back
describe('When several limits answer one request', () => {
  it('answers the longest wait among the refusals, or null when all allow', () => {
    const allowed = { allowed: true, remaining: 3 } as const;
    const refused = (retryAfterSeconds: number) => ({ allowed: false, retryAfterSeconds }) as const;
    expect(longestWait([refused(60), allowed, refused(900), refused(5)])).to.equal(900);
    expect(longestWait([allowed, allowed])).to.equal(null);
  });
});
