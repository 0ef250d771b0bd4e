/**
 * The process's embedder thread is shared by every user and both services. These tests hold it to
 * the rules that keep one user's large or many texts from holding up everyone's searches:
 *
 * - README "Search": "a text is embedded by its first 4,096 characters at most on the bundled
 *   encoder, 8,192 on all-MiniLM-L6-v2 (the rest of it is found by its words)" —
 *   src/search/embedder.ts, MAX_EMBED_CHARS / embeddablePrefix, energetic-embedder.ts;
 * - README "Search": "a search's query is embedded before any indexing waiting for the embedder:
 *   it waits at most for the one unit of work already running (4 texts or 8,192 characters at
 *   most, or a single text)" — src/search/embedder-thread.ts, units and the queue.
 *
 * Not timed: the order in which work comes back from the thread (which takes one message at a
 * time, in the order it is given them) shows the order it was given. The wait it bounds is
 * measured in bench/search-backlog.bench.ts; the size of a unit is held in
 * embedder-units.unit.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { startEmbedder } from '../../src/search/create-embedder.js';
import type { EmbedOptions, Embedder } from '../../src/search/embedder.js';
import { ENERGETIC_PROVIDER } from '../../src/search/energetic-embedder.js';
import { createIndexer } from '../../src/search/indexer.js';
import { createVectorIndex } from '../../src/search/vector-index.js';
import { DEFAULT_TRANSFORMERS_MODEL } from '../../src/search/transformers-embedder.js';
import { memoryReadStore } from './support/memory-read-store.js';
import { writeTinyBertModel } from './support/tiny-onnx-model.js';

const quiet = { info() {}, warn() {} };
/** the bounds the rule names (src/search/embedder.ts MAX_EMBED_CHARS, ENERGETIC_MAX_CHARS) */
const BOUND = 8_192;
const ENERGETIC_BOUND = 4_096;

/** About `length` characters of words from `words`, ending with a whole word and a space. */
function prose(words: string[], length: number, seed = 0): string {
  let text = '';
  for (let i = seed; text.length < length; i++) text += `${words[(i * 7) % words.length]} `;
  return text;
}
const ENGLISH =
  'the quarterly report shows shipping delays grew after the warehouse moved to a new building and the team asked for more staff'.split(
    ' ',
  );
describe('Embedder thread fairness', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'embedder-fairness-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  describe('Rule: a search query is embedded before the indexing queued ahead of it, waiting at most for the unit already running', () => {
    it('answers a query before a backlog of indexing batches queued before it (transformers.js)', async () => {
      writeTinyBertModel(dir, DEFAULT_TRANSFORMERS_MODEL, 8);
      const handle = startEmbedder({ modelDir: dir, logger: quiet });
      try {
        const embedder = await handle.get();
        const words = ['dark', 'mode', 'night', 'theme', 'export', 'csv', 'login', 'slow'];
        const order: string[] = [];
        const track = (name: string, texts: string[], options?: EmbedOptions) =>
          embedder.embed(texts, options).then((vectors) => {
            order.push(name);
            return vectors;
          });
        const batch = (n: number, count: number) =>
          Array.from({ length: count }, (_, i) => prose(words, 200, n * 100 + i));
        // the backlog: one large indexing batch (6 units), then four more, queued before the query
        const backlog = [
          track('bulk', batch(0, 48)),
          ...[1, 2, 3, 4].map((n) => track(`batch ${n}`, batch(n, 8))),
        ];
        const query = track('query', ['dark mode please'], { priority: 'query' });
        const [queryVector] = await query;
        const done = await Promise.all(backlog);
        expect(order[0], `order the thread answered: ${order.join(', ')}`).to.equal('query');
        expect(order).to.have.length(6);
        // each call still gets its own vectors, in order
        expect(done[0]).to.have.length(48);
        const [alone] = await embedder.embed(['dark mode please']);
        expect([...queryVector!]).to.deep.equal([...alone!]);
        const again = await embedder.embed(batch(0, 48));
        for (const [i, vector] of again.entries())
          expect([...vector]).to.deep.equal([...done[0]![i]!]);
      } finally {
        await handle.close();
      }
    });

    it('answers a search before the indexing batch that was being embedded when it came', async () => {
      writeTinyBertModel(dir, DEFAULT_TRANSFORMERS_MODEL, 8);
      const handle = startEmbedder({ modelDir: dir, logger: quiet });
      try {
        const inner = await handle.get();
        const order: string[] = [];
        let batchQueued!: () => void;
        const queued = new Promise<void>((resolve) => {
          batchQueued = resolve;
        });
        // the services' path: a vector index and its indexer over the thread's embedder
        const embedder: Embedder = {
          provider: inner.provider,
          dimensions: inner.dimensions,
          embed(texts, options) {
            const done = inner.embed(texts, options);
            const name = texts.length === 1 ? 'search' : `indexing batch of ${texts.length}`;
            done.then(() => order.push(name)).catch(() => {});
            if (texts.length > 1) batchQueued();
            return done;
          },
        };
        const index = createVectorIndex({ name: 'fair', embedder, readStore: memoryReadStore() });
        await index.setup();
        const words = ['dark', 'mode', 'night', 'theme', 'export', 'csv', 'login', 'slow'];
        for (let i = 0; i < 64; i++) await index.stage(`spam${i}`, 'spam', prose(words, 300, i));
        const indexer = createIndexer({ index, batchSize: 32 });
        indexer.start();
        await queued;
        await index.search('mine', 'dark mode');
        await indexer.whenIdle();
        await indexer.stop();
        expect(order[0], `order the thread answered: ${order.join(', ')}`).to.equal('search');
        expect(order.slice(1)).to.deep.equal(['indexing batch of 32', 'indexing batch of 32']);
      } finally {
        await handle.close();
      }
    });

    it('answers a query before indexing batches queued before it (bundled encoder)', async function () {
      this.timeout(60_000);
      const handle = startEmbedder({ modelDir: dir, logger: quiet }); // empty folder: bundled encoder
      try {
        const embedder = await handle.get();
        expect(embedder.provider).to.equal(ENERGETIC_PROVIDER);
        const order: string[] = [];
        // batches under the bulk helper's size (32), so all of them are the thread's work
        const backlog = [0, 1, 2].map((n) =>
          embedder
            .embed(Array.from({ length: 24 }, (_, i) => prose(ENGLISH, 300, n * 24 + i)))
            .then(() => order.push(`batch ${n}`)),
        );
        const query = embedder
          .embed(['shipping delays'], { priority: 'query' })
          .then(() => order.push('query'));
        await Promise.all([...backlog, query]);
        expect(order[0], `order the thread answered: ${order.join(', ')}`).to.equal('query');
      } finally {
        await handle.close();
      }
    });
  });

  describe('Rule: a text is embedded by its first 4,096 characters at most on the bundled encoder, 8,192 on all-MiniLM-L6-v2', () => {
    it('gives a long text the vector of its first 4,096 characters on the bundled encoder, on the thread and on the bulk helper', async function () {
      this.timeout(120_000);
      const handle = startEmbedder({ modelDir: dir, logger: quiet });
      try {
        const embedder = await handle.get();
        expect(embedder.provider).to.equal(ENERGETIC_PROVIDER);
        // the encoder reads 128 tokens, but a run of characters its vocabulary lacks is one
        // token however long: here the words after the run are within its 128 tokens, and past
        // the bound
        const run = '\u{1F600}'.repeat(3_000);
        const long = (words: string) => `dark mode ${run} ${words}`;
        const [prefix] = await embedder.embed([long('').slice(0, ENERGETIC_BOUND)]);
        const [alone] = await embedder.embed([long('shipping delays')]);
        expect([...alone!]).to.deep.equal([...prefix!]);
        // a backlog's batch of 32: the first half on the thread, the second on the bulk helper
        const batch = Array.from({ length: 32 }, (_, i) => prose(ENGLISH, 200, i));
        batch[0] = long('guitar lessons');
        batch[31] = long('jazz standards');
        const vectors = await embedder.embed(batch);
        expect([...vectors[0]!]).to.deep.equal([...prefix!]);
        expect([...vectors[31]!]).to.deep.equal([...prefix!]);
      } finally {
        await handle.close();
      }
    });

    it('embeds no more than the prefix on transformers.js either, however few tokens it holds', async () => {
      writeTinyBertModel(dir, DEFAULT_TRANSFORMERS_MODEL, 8);
      const handle = startEmbedder({ modelDir: dir, logger: quiet });
      try {
        const embedder = await handle.get();
        expect(embedder.provider).to.equal('transformers:all-MiniLM-L6-v2');
        // 2 tokens in the first 8,192 characters (blank space between): the model's 512-token
        // limit would reach the words after them, the bound does not
        const text = `dark mode${' '.repeat(BOUND)}export csv login`;
        const [whole, prefix] = await embedder.embed([text, 'dark mode']);
        expect([...whole!]).to.deep.equal([...prefix!]);
      } finally {
        await handle.close();
      }
    });
  });
});
