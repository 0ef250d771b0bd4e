import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect } from 'chai';
import { type CachedText, createScopeCaches } from '../../src/search/scope-caches.js';
import { encodeVector } from '../../src/search/vector-codec.js';
import { createVectorIndex } from '../../src/search/vector-index.js';
import { fakeEmbedder } from './support/fake-embedder.js';
import { memoryReadStore } from './support/memory-read-store.js';
import { watchedReads } from './support/watched-reads.js';

const UNBOUNDED_BYTES = 2 ** 40;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ids = (hits: { id: string }[]) => hits.map((h) => h.id).sort();

/** A collection of texts with their vectors, as the vector index stores them. */
async function storedTexts(embedder = fakeEmbedder()) {
  const reads = watchedReads(memoryReadStore());
  const texts = reads.store.collection<CachedText>('search_test');
  const write = async (id: string, scope: string, text: string) => {
    const [vector] = await embedder.embed([text]);
    await texts.insertOne({
      _id: id,
      scope,
      text,
      provider: embedder.provider,
      vector: encodeVector(vector),
    });
  };
  return { reads, texts, write, embedder };
}

describe('Scope caches', () => {
  // README (Search): at most 1000 scopes per index stay loaded; the least recently searched is
  // dropped and loaded again from the store by its next search
  describe('When more scopes are searched than the bound', () => {
    it('drops the least recently searched one, whose next search finds every text, one written while it was dropped too', async () => {
      const reads = watchedReads(memoryReadStore());
      const index = createVectorIndex({
        name: 'items',
        embedder: fakeEmbedder(),
        readStore: reads.store,
        cacheBounds: { maxScopes: 2, maxArenaBytes: UNBOUNDED_BYTES },
      });
      await index.upsert('a1', 'ws1', 'dark mode');
      await index.upsert('b1', 'ws2', 'dark mode');
      await index.upsert('c1', 'ws3', 'dark mode');
      for (const scope of ['ws1', 'ws2', 'ws1', 'ws3']) await index.search(scope, 'dark mode');
      expect(reads.loads.filter((s) => s === 'ws2')).to.have.length(2); // its arena and words

      await index.upsert('b2', 'ws2', 'dark theme'); // ws2 is not loaded: only the store has it
      const semantic = await index.search('ws2', 'dark', { mode: 'semantic' });
      const lexical = await index.search('ws2', 'dark', { mode: 'lexical' });
      expect(reads.loads.filter((s) => s === 'ws2')).to.have.length(4); // loaded again
      expect(ids(semantic)).to.deep.equal(['b1', 'b2']);
      expect(ids(lexical)).to.deep.equal(['b1', 'b2']);
      // ws1 was searched after ws2, so it stayed: loaded once
      expect(reads.loads.filter((s) => s === 'ws1')).to.have.length(2);
    });
  });

  // scope-caches.ts: "The replacement's read may predate a write, so writes meanwhile are
  // applied to both" — and a dropped scope's rebuild never comes back over a later load
  describe('When a text is written while a stale lexical index is being rebuilt', () => {
    it('is in the rebuilt index', async () => {
      const { reads, texts, write } = await storedTexts();
      await write('t1', 'u', 'grocery list');
      const caches = createScopeCaches(() => texts, 0);
      await caches.lexiconFor('u');
      await pause(2); // older than the ttl
      const release = reads.holdNextRead();
      await caches.lexiconFor('u'); // answers from the stale one, rebuilds from a read made now
      await write('t2', 'u', 'quantum physics notes');
      await caches.touchLexicon('u', (lexicon) => lexicon.set('t2', 'quantum physics notes'));
      release();
      await pause(5); // the rebuild is in
      const rebuilt = await caches.lexiconFor('u');
      expect(ids(rebuilt.search('quantum'))).to.deep.equal(['t2']);
    });

    it('is not lost when the scope was dropped meanwhile and loaded again', async () => {
      const { reads, texts, write } = await storedTexts();
      await write('t1', 'u', 'grocery list');
      const caches = createScopeCaches(() => texts, 0, {
        maxScopes: 1,
        maxArenaBytes: UNBOUNDED_BYTES,
      });
      await caches.lexiconFor('u');
      await pause(2);
      const release = reads.holdNextRead();
      await caches.lexiconFor('u'); // a rebuild reads ['t1'] and waits
      await caches.lexiconFor('v'); // 'u' is dropped
      await write('t2', 'u', 'quantum physics notes');
      await caches.touchLexicon('u', (lexicon) => lexicon.set('t2', 'quantum physics notes'));
      expect(ids((await caches.lexiconFor('u')).search('quantum'))).to.deep.equal(['t2']);
      release();
      await pause(5); // the old rebuild has finished
      expect(ids((await caches.lexiconFor('u')).search('quantum'))).to.deep.equal(['t2']);
    });
  });

  describe('When many scopes are searched in turn', () => {
    it('holds at most maxArenaBytes of arenas, those of the most recently searched scopes', async () => {
      const { texts, write, embedder } = await storedTexts();
      for (let s = 0; s < 12; s++)
        for (let i = 0; i < 40; i++) await write(`${s}-${i}`, `u${s}`, `note ${i} of user ${s}`);
      const one = createScopeCaches(() => texts, undefined);
      await one.arenaFor('u0', embedder);
      const scopeBytes = one.loaded().arenaBytes;

      const caches = createScopeCaches(() => texts, undefined, {
        maxScopes: 1000,
        maxArenaBytes: 3 * scopeBytes,
      });
      for (let round = 0; round < 2; round++)
        for (let s = 0; s < 12; s++) {
          await caches.arenaFor(`u${s}`, embedder);
          expect(caches.loaded().arenaBytes).to.be.at.most(3 * scopeBytes);
        }
      expect(caches.loaded()).to.deep.equal({
        scopes: ['u9', 'u10', 'u11'],
        arenaBytes: 3 * scopeBytes,
      });
    });

    it('lets the garbage collector free the arena of a dropped scope', async () => {
      setFlagsFromString('--expose-gc');
      const gc = runInNewContext('gc') as () => void;
      const { texts, write, embedder } = await storedTexts();
      for (let s = 0; s < 6; s++) await write(`t${s}`, `u${s}`, `note of user ${s}`);
      const caches = createScopeCaches(() => texts, undefined, {
        maxScopes: 2,
        maxArenaBytes: UNBOUNDED_BYTES,
      });
      const arenas: WeakRef<object>[] = [];
      for (let s = 0; s < 6; s++)
        arenas.push(new WeakRef(await caches.arenaFor(`u${s}`, embedder)));
      await pause(0); // weak references are kept until the current task ends
      gc();
      expect(arenas.map((arena) => arena.deref() !== undefined)).to.deep.equal([
        false,
        false,
        false,
        false,
        true,
        true,
      ]);
    });

    // at 512 floats a vector, room for 64 of them took three WebAssembly pages per scope: 3000
    // scopes that had searched once held ~460 MB
    it('gives a scope with no vectors one WebAssembly page at most', async () => {
      const { texts, embedder } = await storedTexts(fakeEmbedder('fake:wide', 512));
      const caches = createScopeCaches(() => texts, undefined);
      await caches.arenaFor('empty', embedder);
      expect(caches.loaded().arenaBytes).to.be.at.most(65_536 + 64);
    });
  });
});
