import { expect } from 'chai';
import { MAX_EMBED_CHARS } from '../../src/search/embedder.js';
import { createVectorIndex, type VectorDoc } from '../../src/search/vector-index.js';
import { fakeEmbedder } from './support/fake-embedder.js';
import { memoryReadStore } from './support/memory-read-store.js';

function setup(provider?: string) {
  const readStore = memoryReadStore();
  const embedder = fakeEmbedder(provider);
  const index = createVectorIndex({ name: 'items', embedder, readStore });
  return { readStore, embedder, index };
}

describe('Vector index', () => {
  describe('When texts are indexed in a scope', () => {
    it('finds the closest text first, with scores in [0, 1]', async () => {
      const { index } = setup();
      await index.upsert('a', 'ws1', 'export to csv file');
      await index.upsert('b', 'ws1', 'dark mode please');
      await index.upsert('c', 'ws1', 'dark theme for the night');
      const hits = await index.search('ws1', 'dark mode', { mode: 'semantic' });
      expect(hits.map((h) => h.id)).to.deep.equal(['b', 'c']);
      // DESIGN.md "Search": Scores are in [0, 1]
      expect(hits[0].score).to.be.closeTo(2 / Math.sqrt(2 * 3), 1e-6); // cosine of the word bags
      for (const hit of hits) expect(hit.score).to.be.within(0, 1);
      expect(hits[0].score).to.be.greaterThan(hits[1].score);
    });

    it('never returns a text of another scope', async () => {
      const { index } = setup();
      await index.upsert('a', 'ws1', 'dark mode');
      await index.upsert('b', 'ws2', 'dark mode');
      expect((await index.search('ws1', 'dark mode')).map((h) => h.id)).to.deep.equal(['a']);
      expect((await index.search('ws2', 'dark mode')).map((h) => h.id)).to.deep.equal(['b']);
      expect(await index.search('ws3', 'dark mode')).to.deep.equal([]);
    });

    it('applies limit, minScore and the allowed-ids filter', async () => {
      const { index } = setup();
      for (let i = 0; i < 20; i++)
        await index.upsert(`i${i}`, 'ws', `dark mode ${'x'.repeat(i + 1)}`);
      await index.upsert('far', 'ws', 'unrelated words entirely');
      expect(await index.search('ws', 'dark mode', { limit: 3 })).to.have.length(3);
      const strong = await index.search('ws', 'dark mode', { limit: 50, minScore: 0.5 });
      expect(strong.map((h) => h.id)).to.not.include('far');
      expect(strong.every((h) => h.score >= 0.5)).to.equal(true);
      const only = await index.search('ws', 'dark mode', { filter: new Set(['i3', 'i5', 'far']) });
      expect(only.map((h) => h.id).sort()).to.deep.equal(['i3', 'i5']); // 'far' scores 0: no match
      const byFn = await index.search('ws', 'dark mode', { filter: (id) => id === 'i7' });
      expect(byFn.map((h) => h.id)).to.deep.equal(['i7']);
    });
  });

  describe('When a text is removed', () => {
    it('is no longer found, also after a cold start', async () => {
      const { index, readStore, embedder } = setup();
      await index.upsert('a', 'ws', 'dark mode');
      await index.upsert('b', 'ws', 'dark theme');
      await index.search('ws', 'dark'); // loads the scope cache
      await index.remove('a');
      expect((await index.search('ws', 'dark')).map((h) => h.id)).to.deep.equal(['b']);
      const cold = createVectorIndex({ name: 'items', embedder, readStore });
      expect((await cold.search('ws', 'dark')).map((h) => h.id)).to.deep.equal(['b']);
    });
  });

  describe('When the same text is staged again (a projector replay)', () => {
    it('embeds nothing and writes nothing', async () => {
      const { index, embedder, readStore } = setup();
      await index.upsert('a', 'ws', 'dark mode');
      const [embeds, writes] = [embedder.embedded.length, readStore.writes];
      expect(await index.stage('a', 'ws', 'dark mode')).to.equal(false);
      await index.upsert('a', 'ws', 'dark mode');
      expect(embedder.embedded.length).to.equal(embeds);
      expect(readStore.writes).to.equal(writes);
    });
  });

  describe('When a text is edited', () => {
    it('keeps the old vector findable until the new one is embedded', async () => {
      const { index } = setup();
      await index.upsert('a', 'ws', 'dark mode');
      expect(await index.stage('a', 'ws', 'csv export')).to.equal(true);
      expect((await index.search('ws', 'dark mode')).map((h) => h.id)).to.deep.equal(['a']);
      expect(await index.embedPending(10)).to.equal(1);
      expect(await index.search('ws', 'dark mode')).to.deep.equal([]);
      expect((await index.search('ws', 'csv export')).map((h) => h.id)).to.deep.equal(['a']);
    });

    // README (Search): "an edit past what the models read (the first 8,192 characters) keeps
    // the text's vector: it is found by its new words at once and not embedded again".
    it('keeps the vector of a long text edited only past what the models read, and finds the new words', async () => {
      const { index, embedder } = setup();
      const head = `dark mode ${'lorem ipsum '.repeat(MAX_EMBED_CHARS / 12)}`;
      await index.upsert('a', 'ws', `${head} closing words`);
      const embeds = embedder.embedded.length;
      expect(await index.stage('a', 'ws', `${head} zanzibar appendix`)).to.equal(true);
      expect(await index.embedPending(10)).to.equal(0);
      expect(embedder.embedded.length).to.equal(embeds);
      expect(
        (await index.search('ws', 'zanzibar', { mode: 'lexical' })).map((h) => h.id),
      ).to.deep.equal(['a']);
      expect(
        (await index.search('ws', 'dark mode', { mode: 'semantic' })).map((h) => h.id),
      ).to.deep.equal(['a']);
      // an edit within what the models read is embedded again
      expect(
        await index.stage('a', 'ws', `light mode ${head.slice(10)} zanzibar appendix`),
      ).to.equal(true);
      expect(await index.embedPending(10)).to.equal(1);
    });

    it('does not store a vector for a text that changed while it was being embedded', async () => {
      const readStore = memoryReadStore();
      const inner = fakeEmbedder();
      let release = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let started = () => {};
      const embedding = new Promise<void>((resolve) => {
        started = resolve;
      });
      const slow = {
        ...inner,
        async embed(texts: readonly string[]) {
          started();
          await gate;
          return inner.embed(texts);
        },
      };
      const index = createVectorIndex({ name: 'items', embedder: slow, readStore });
      await index.stage('a', 'ws', 'dark mode');
      const run = index.embedPending(10);
      await embedding; // 'dark mode' is being embedded now
      await index.stage('a', 'ws', 'csv export');
      release();
      await run;
      const doc = await readStore.collection<VectorDoc>(index.collection).findOne({ _id: 'a' });
      expect(doc?.pending).to.equal(true);
      expect(doc?.vector).to.equal(null);
      await index.embedPending(10);
      expect((await index.search('ws', 'csv export')).map((h) => h.id)).to.deep.equal(['a']);
    });
  });

  describe('When the provider changes', () => {
    // DESIGN.md "Search": the vector index records the provider and rebuilds when it changes
    it('re-embeds every stored text with the new provider', async () => {
      const { index, readStore } = setup('fake:one');
      await index.upsert('a', 'ws', 'dark mode');
      await index.upsert('b', 'ws', 'csv export');
      const next = fakeEmbedder('fake:two', 32);
      const rebuilt = createVectorIndex({ name: 'items', embedder: next, readStore });
      expect(await rebuilt.status()).to.include({
        provider: 'fake:two',
        indexed: 0,
        pending: 2,
      });
      // old vectors (another provider, another size) never mix into the new search
      expect(await rebuilt.search('ws', 'dark mode', { mode: 'semantic' })).to.deep.equal([]);
      while ((await rebuilt.embedPending(1)) > 0) {}
      expect(next.embedded).to.include.members(['dark mode', 'csv export']);
      expect(await rebuilt.status()).to.include({
        provider: 'fake:two',
        indexed: 2,
        pending: 0,
      });
      expect((await rebuilt.search('ws', 'dark mode')).map((h) => h.id)).to.deep.equal(['a']);
      const meta = await readStore.collection(index.collection).findOne({ _id: '__meta__' });
      expect(meta?.provider).to.equal('fake:two');
    });

    it('keeps the vectors when the provider is the same', async () => {
      const { index, readStore } = setup('fake:one');
      await index.upsert('a', 'ws', 'dark mode');
      const same = fakeEmbedder('fake:one');
      const reopened = createVectorIndex({ name: 'items', embedder: same, readStore });
      expect(await reopened.status()).to.include({
        provider: 'fake:one',
        indexed: 1,
        pending: 0,
      });
      expect((await reopened.search('ws', 'dark mode')).map((h) => h.id)).to.deep.equal(['a']);
      expect(same.embedded).to.deep.equal(['dark mode']); // the query only
    });
  });

  describe('When a projection rebuild dropped the collection', () => {
    it('forgets its cache on reset and serves what is indexed again', async () => {
      const { index, readStore } = setup();
      await index.upsert('a', 'ws', 'dark mode');
      await index.search('ws', 'dark mode');
      await readStore.dropCollection(index.collection);
      index.reset();
      expect(await index.search('ws', 'dark mode')).to.deep.equal([]);
      await index.upsert('b', 'ws', 'dark mode');
      expect((await index.search('ws', 'dark mode')).map((h) => h.id)).to.deep.equal(['b']);
    });
  });
});
