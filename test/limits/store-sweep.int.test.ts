/**
 * store.ts keeps its collection small by sweeping: at most once a minute, a take deletes every
 * key's state whose `expiresAt` has passed. limit-state.ts: `expiresAt` is "when (ms) the state
 * equals a fresh one and may be dropped" — so a sweep must drop expired state, and must never
 * drop state that still counts (a spent bucket, a full window, a lockout's strikes), or it would
 * hand the key its whole limit back.
 */
import { expect } from 'chai';
import { createLimits, LIMITS_COLLECTION, type Policy } from '../../src/limits/index.js';
import { openTestStores, type TestStores } from '../support/stores.js';

const S = 1000;
const T0 = 1_000_000_000;
const WINDOW: Policy = { kind: 'sliding-window', max: 2, windowSeconds: 900 };
const BUCKET: Policy = { kind: 'token-bucket', capacity: 2, refillEverySeconds: 3600 };
const LOCKOUT: Policy = {
  kind: 'sliding-window',
  max: 2,
  windowSeconds: 60,
  lockout: { baseSeconds: 60, factor: 2, maxSeconds: 3600, forgetAfterSeconds: 86_400 },
};

describe('When limit state is swept', () => {
  let stores: TestStores;
  let now = T0;
  beforeEach(async () => {
    stores = await openTestStores();
    now = T0;
  });
  afterEach(() => stores.cleanup());

  const open = () => createLimits({ readStore: stores.readStore, now: () => now });
  const stored = () => stores.readStore.collection(LIMITS_COLLECTION).countDocuments({});

  it('drops a key whose state has come to equal a fresh one', async () => {
    const window = open().limiter('codes', WINDOW);
    await window.take('ann@example.com');
    now = T0 + 960 * S; // ann's one event left the window a minute ago
    await window.take('bob@example.com');
    expect(await stored(), 'keys stored').to.equal(1);
  });

  it('keeps what still counts: a spent bucket, a full window, the strikes behind a lockout', async () => {
    const limits = open();
    const bucket = limits.limiter('searches', BUCKET);
    const window = limits.limiter('codes', WINDOW);
    const lockout = limits.limiter('wrong-codes', LOCKOUT);
    await bucket.take('ann');
    await bucket.take('ann');
    await lockout.take('ann');
    await lockout.take('ann'); // locked for 60 s: the first strike
    await window.take('ann');
    now = T0 + 600 * S;
    await window.take('ann');
    now = T0 + 960 * S;
    await bucket.take('bob'); // a take of another key sweeps
    // a quarter of a token back in 16 minutes: the next whole one in 44
    expect(await bucket.take('ann')).to.deep.equal({ allowed: false, retryAfterSeconds: 2640 });
    // the first event has left the window, the one of T0 + 600 s still counts
    expect(await window.take('ann')).to.deep.equal({ allowed: true, remaining: 0 });
    expect(await window.take('ann')).to.deep.equal({ allowed: false, retryAfterSeconds: 540 });
    // the second lockout within a day lasts twice the first (sliding-window.ts: "grows with each repeat")
    await lockout.take('ann');
    await lockout.take('ann');
    expect(await lockout.take('ann')).to.deep.equal({ allowed: false, retryAfterSeconds: 120 });
  });
});
