/**
 * The read store held only in memory (src/readstore/embedded/memory.ts) keeps checkpoints as the
 * others do — src/readstore/types.ts, `flush`: "A checkpoint only moves forward: one given behind
 * the stored one leaves it as it is." (The file and MongoDB adapters: test/readstore/contract.)
 */
import { expect } from 'chai';
import { createMemoryReadStore } from '../../../src/readstore/embedded/memory.js';

describe('The in-memory read store’s checkpoints', () => {
  it('move only forward; a deleted one starts over', async () => {
    const store = createMemoryReadStore();
    await store.flush(new Map([['a', 100n]]));
    await store.flush(new Map([['a', 99n]]));
    expect(Object.fromEntries(await store.checkpoints())).to.deep.equal({ a: 100n });
    await store.flush(new Map([['a', 101n]]));
    expect(Object.fromEntries(await store.checkpoints())).to.deep.equal({ a: 101n });
    await store.deleteCheckpoint('a');
    await store.flush(new Map([['a', 3n]]));
    expect(Object.fromEntries(await store.checkpoints())).to.deep.equal({ a: 3n });
  });
});
