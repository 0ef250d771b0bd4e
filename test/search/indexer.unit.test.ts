import { expect } from 'chai';
import type { Embedder } from '../../src/search/embedder.js';
import { createIndexer, indexProgress } from '../../src/search/indexer.js';
import { createVectorIndex } from '../../src/search/vector-index.js';
import { fakeEmbedder } from './support/fake-embedder.js';
import { memoryReadStore } from './support/memory-read-store.js';

/** An embedder whose calls wait until `release()`; records each batch it was given. */
function gatedEmbedder() {
  const inner = fakeEmbedder();
  const batches: number[] = [];
  let open = false;
  let waiters: (() => void)[] = [];
  const embedder: Embedder = {
    provider: inner.provider,
    dimensions: inner.dimensions,
    async embed(texts) {
      batches.push(texts.length);
      if (!open) await new Promise<void>((resolve) => waiters.push(resolve));
      return inner.embed(texts);
    },
  };
  const release = () => {
    open = true;
    for (const wake of waiters) wake();
    waiters = [];
  };
  return { embedder, batches, release };
}

describe('Background indexer', () => {
  describe('When a write enqueues a text', () => {
    // issue 4: embedding happens off the request path of writes (a write does not wait for a model)
    it('resolves before the model has embedded anything', async () => {
      const { embedder, release } = gatedEmbedder();
      const index = createVectorIndex({ name: 'items', embedder, readStore: memoryReadStore() });
      const indexer = createIndexer({ index, delayMs: 5 });
      await indexer.enqueue('a', 'ws', 'dark mode'); // would hang here if it waited for the model
      release();
      await indexer.whenIdle();
      expect((await index.search('ws', 'dark mode')).map((h) => h.id)).to.deep.equal(['a']);
      await indexer.stop();
    });

    it('is searchable within the batching delay plus one embedding', async () => {
      const index = createVectorIndex({
        name: 'items',
        embedder: fakeEmbedder(),
        readStore: memoryReadStore(),
      });
      const indexer = createIndexer({ index, delayMs: 20 });
      await index.search('ws', 'warm up'); // the scope cache is loaded, as in a running service
      const started = Date.now();
      await indexer.enqueue('a', 'ws', 'dark mode');
      while ((await index.search('ws', 'dark mode')).length === 0)
        await new Promise((r) => setTimeout(r, 2));
      expect(Date.now() - started).to.be.lessThan(20 + 100);
      await indexer.stop();
    });
  });

  describe('When many texts arrive at once', () => {
    it('embeds them in batches no larger than batchSize', async () => {
      const { embedder, batches, release } = gatedEmbedder();
      release();
      const index = createVectorIndex({ name: 'items', embedder, readStore: memoryReadStore() });
      const indexer = createIndexer({ index, delayMs: 50, batchSize: 8 });
      await Promise.all(
        Array.from({ length: 30 }, (_, i) => indexer.enqueue(`i${i}`, 'ws', `dark mode ${i}`)),
      );
      await indexer.whenIdle();
      expect(batches.reduce((a, b) => a + b, 0)).to.equal(30);
      expect(Math.max(...batches)).to.be.at.most(8);
      expect(await index.status()).to.include({ indexed: 30, pending: 0 });
      await indexer.stop();
    });
  });

  describe('While a backlog drains (issue 14: "report progress of a full (re)index")', () => {
    it('reports indexed, pending, the rate and the seconds left at that rate', async () => {
      const inner = fakeEmbedder();
      const slow: Embedder = {
        ...inner,
        async embed(texts) {
          await new Promise((resolve) => setTimeout(resolve, 40));
          return inner.embed(texts);
        },
      };
      const index = createVectorIndex({
        name: 'items',
        embedder: slow,
        readStore: memoryReadStore(),
      });
      const indexer = createIndexer({ index, delayMs: 1, batchSize: 8 });
      for (let i = 0; i < 40; i++) await index.stage(`i${i}`, 'ws', `text ${i}`);
      expect(await indexProgress(index, indexer)).to.deep.equal({
        indexed: 0,
        pending: 40,
        loadedScopes: 0, // nothing searched yet: nothing loaded
        loadedVectorBytes: 0,
        textsPerSecond: 0,
        etaSeconds: null, // nothing embedded yet: no rate to estimate from
      });
      indexer.start();
      let progress = await indexProgress(index, indexer);
      while (progress.indexed < 16) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        progress = await indexProgress(index, indexer);
      }
      // polled every 5 ms against 40 ms batches: seen mid-drain, ~8 texts per 40 ms
      expect(progress.pending).to.be.above(0);
      expect(progress.textsPerSecond).to.be.above(20);
      expect(progress.etaSeconds).to.equal(Math.ceil(progress.pending / progress.textsPerSecond));
      await indexer.whenIdle();
      progress = await indexProgress(index, indexer);
      expect(progress).to.include({ indexed: 40, pending: 0, etaSeconds: null });
      expect(progress.textsPerSecond).to.be.above(20);
      await indexer.stop();
    });
  });

  describe('When pending texts were left in the store (crash, provider change)', () => {
    it('embeds them on start', async () => {
      const readStore = memoryReadStore();
      const before = createVectorIndex({ name: 'items', embedder: fakeEmbedder(), readStore });
      await before.stage('a', 'ws', 'dark mode'); // staged, then the process died
      const index = createVectorIndex({ name: 'items', embedder: fakeEmbedder(), readStore });
      const indexer = createIndexer({ index });
      indexer.start();
      await indexer.whenIdle();
      expect((await index.search('ws', 'dark mode')).map((h) => h.id)).to.deep.equal(['a']);
      await indexer.stop();
    });
  });

  describe('When the embedder fails', () => {
    it('logs, keeps the text pending and retries', async () => {
      const inner = fakeEmbedder();
      let failures = 1;
      const flaky: Embedder = {
        ...inner,
        async embed(texts) {
          if (failures-- > 0) throw new Error('model crashed');
          return inner.embed(texts);
        },
      };
      const warnings: string[] = [];
      const index = createVectorIndex({
        name: 'items',
        embedder: flaky,
        readStore: memoryReadStore(),
      });
      const indexer = createIndexer({
        index,
        delayMs: 1,
        retryMs: 10,
        logger: { warn: (m) => warnings.push(m) },
      });
      await indexer.enqueue('a', 'ws', 'dark mode');
      await indexer.whenIdle();
      expect(warnings).to.have.length(1);
      expect((await index.search('ws', 'dark mode')).map((h) => h.id)).to.deep.equal(['a']);
      await indexer.stop();
    });
  });

  describe('When a text is removed through the indexer', () => {
    it('disappears from search', async () => {
      const index = createVectorIndex({
        name: 'items',
        embedder: fakeEmbedder(),
        readStore: memoryReadStore(),
      });
      const indexer = createIndexer({ index, delayMs: 1 });
      await indexer.enqueue('a', 'ws', 'dark mode');
      await indexer.whenIdle();
      await indexer.remove('a');
      await indexer.whenIdle();
      expect(await index.search('ws', 'dark mode')).to.deep.equal([]);
      await indexer.stop();
    });
  });
});
