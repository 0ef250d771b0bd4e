/**
 * README: "a retry with the same Idempotency-Key returns the first result. That holds for every
 * write" — also for a write that changed nothing, whose key no event carries (quiet-keys.ts).
 * An audit found such a retry decided again: after another change it undid that change.
 */
import { expect } from 'chai';
import { Conflict } from '../../commands/shared/errors.js';
import { ReadStoreUnavailableError } from '../../src/readstore/types.js';
import { createCommandHandler } from '../../src/write/command-handler.js';
import { type QuietKeys, quietKeysIn } from '../../src/write/quiet-keys.js';
import { counter } from '../support/counter.js';
import { openTestStores, type TestStores } from '../support/stores.js';

const ctx = { actor: 'user-1', now: 1_700_000_000_000 };
const keyed = (key: string, actor = 'user-1') => ({ ...ctx, actor, idempotencyKey: key });

describe('When a command with an Idempotency-Key changes nothing', () => {
  let stores: TestStores;
  let quietKeys: QuietKeys;
  const handler = (keys: QuietKeys = quietKeys) =>
    createCommandHandler(stores.eventStore, { quietKeys: keys });
  beforeEach(async () => {
    stores = await openTestStores();
    quietKeys = quietKeysIn(stores.readStore);
  });
  afterEach(() => stores.cleanup());

  it('answers its retry as it was, at the revision it answered, after another change', async () => {
    const h = handler();
    await h.handle('c-1', counter, { type: 'Increment', by: 1 }, ctx);
    const first = await h.handle('c-1', counter, { type: 'Touch' }, keyed('k1'));
    expect(first).to.include({ revision: 0, replayed: false });
    await h.handle('c-1', counter, { type: 'Increment', by: 5 }, ctx);
    // a second process (or this one after a restart) finds the key too
    for (const retrying of [h, handler()]) {
      const again = await retrying.handle('c-1', counter, { type: 'Touch' }, keyed('k1'));
      expect(again).to.deep.include({ state: { total: 1 }, revision: 0, replayed: true });
      expect(again.events).to.deep.equal([]);
      expect(again.position).to.equal(null);
    }
    expect(await stores.eventStore.readStream('c-1')).to.have.length(2);
  });

  it('refuses the key with another request (409) and appends nothing', async () => {
    const h = handler();
    await h.handle('c-2', counter, { type: 'Touch' }, keyed('k2'));
    const other = await h
      .handle('c-2', counter, { type: 'Increment', by: 3 }, keyed('k2'))
      .catch((e: unknown) => e);
    expect(other).to.be.instanceOf(Conflict);
    expect(await stores.eventStore.readStream('c-2')).to.have.length(0);
  });

  it('keeps keys per sender: the same key from another actor is another request', async () => {
    const h = handler();
    await h.handle('c-3', counter, { type: 'Touch' }, keyed('k3'));
    const theirs = await h.handle('c-3', counter, { type: 'Increment', by: 2 }, keyed('k3', 'u2'));
    expect(theirs.replayed).to.equal(false);
    expect(theirs.events).to.have.length(1);
  });

  it('answers a second attempt decided in the same batch from the first', async () => {
    const h = handler();
    // the first command runs the stream's lane; the two queued behind it are decided together
    const [, a, b] = await Promise.all([
      h.handle('c-4', counter, { type: 'Increment', by: 1 }, ctx),
      h.handle('c-4', counter, { type: 'Touch' }, keyed('k4')),
      h.handle('c-4', counter, { type: 'Touch' }, keyed('k4')),
    ]);
    expect([a.replayed, b.replayed]).to.deep.equal([false, true]);
  });

  it('lets an early refusal through for its retry: load() says it is one', async () => {
    const h = handler();
    expect((await h.load('c-5', counter, keyed('k5'))).retry).to.equal(false);
    await h.handle('c-5', counter, { type: 'Touch' }, keyed('k5'));
    expect((await h.load('c-5', counter, keyed('k5'))).retry).to.equal(true);
  });

  it('is refused with the store error when its key cannot be kept; the batch others stand', async () => {
    const refusing: QuietKeys = {
      find: (streamId, keys) => quietKeys.find(streamId, keys),
      record: () => Promise.reject(new ReadStoreUnavailableError('disk full')),
    };
    const h = handler(refusing);
    // the first command runs the stream's lane; the two queued behind it are one batch
    const [, touched, incremented] = await Promise.allSettled([
      h.handle('c-6', counter, { type: 'Increment', by: 1 }, ctx),
      h.handle('c-6', counter, { type: 'Touch' }, keyed('k6')),
      h.handle('c-6', counter, { type: 'Increment', by: 4 }, ctx),
    ]);
    expect(touched.status).to.equal('rejected');
    expect((touched as PromiseRejectedResult).reason).to.be.instanceOf(ReadStoreUnavailableError);
    expect(incremented.status).to.equal('fulfilled');
    expect(await stores.eventStore.readStream('c-6')).to.have.length(2);
  });
});
