/**
 * A stop during a backlog (a rebuild, a bulk import, the first start after an upgrade) returns
 * promptly: it waits neither for the backlog nor for the batch in flight, whose embedding is
 * abandoned; every text not embedded stays pending in the store for the next start. The audit:
 * SIGTERM during the first start after an upgrade took 8.7–12 s, 4.8 s of it one batch.
 */
import { expect } from 'chai';
import type { Embedder } from '../../src/search/embedder.js';
import { createIndexer } from '../../src/search/indexer.js';
import { createVectorIndex } from '../../src/search/vector-index.js';
import { fakeEmbedder } from './support/fake-embedder.js';
import { memoryReadStore } from './support/memory-read-store.js';

/** what one batch took behind the other indexers' units and a bulk helper still starting */
const SLOW_BATCH_MS = 1_500;
const STOP_BOUND_MS = 250;

/** The fake embedder at the speed of a loaded machine; it cannot be interrupted. */
function slowEmbedder() {
  const inner = fakeEmbedder();
  const calls: number[] = [];
  const embedder: Embedder = {
    provider: inner.provider,
    dimensions: inner.dimensions,
    async embed(texts) {
      calls.push(texts.length);
      await new Promise((resolve) => setTimeout(resolve, SLOW_BATCH_MS));
      return inner.embed(texts);
    },
  };
  return { embedder, calls };
}

describe('When the search indexer is stopped during a large backlog', () => {
  it(`returns within ${STOP_BOUND_MS} ms and keeps every text not embedded pending for the next start`, async () => {
    const { embedder, calls } = slowEmbedder();
    const index = createVectorIndex({ name: 'items', embedder, readStore: memoryReadStore() });
    const indexer = createIndexer({ index, delayMs: 5, batchSize: 32 });
    for (let n = 0; n < 200; n++) await indexer.enqueue(`item-${n}`, 'ws', `dark mode ${n}`);
    while (calls.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));

    const started = performance.now();
    await indexer.stop();
    const stopMs = performance.now() - started;
    expect(stopMs, 'stop waited for the batch in flight').to.be.below(STOP_BOUND_MS);

    // the abandoned batch's vectors arrive after the stop: nothing is written with them
    await new Promise((resolve) => setTimeout(resolve, SLOW_BATCH_MS + 50));
    expect(await index.status()).to.include({ indexed: 0, pending: 200 });

    const next = createIndexer({ index: index, delayMs: 5, batchSize: 200 });
    next.start();
    await next.whenIdle();
    expect(await index.status()).to.include({ indexed: 200, pending: 0 });
    await next.stop();
  });
});
