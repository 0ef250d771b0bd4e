/**
 * Issue 14: "Hybrid ranking ... a lexical index (BM25 ... with stemming/normalisation for
 * English, accent folding, prefix matching for the last query word) ... fused with the semantic
 * ranking. Scores stay in [0, 1], higher is closer"; "Fresh at once: an item or note is findable
 * by its words in the answer of the write's read-your-writes ... nothing is ever missing from
 * results while it waits."
 */
import { expect } from 'chai';
import { type Embedder, normalize } from '../../src/search/embedder.js';
import { createScopeLexicon } from '../../src/search/lexical-index.js';
import { createVectorIndex } from '../../src/search/vector-index.js';
import { memoryReadStore } from './support/memory-read-store.js';
import { steppableWallClock } from '../support/wall-clock.js';

/** An encoder that places texts where the test says, so it can rank a text low on purpose. */
function placedEmbedder(place: (text: string) => [number, number]): Embedder {
  return {
    provider: 'fake:placed',
    dimensions: 2,
    async embed(texts) {
      return texts.map((text) => normalize(Float32Array.from(place(text))));
    },
  };
}

describe('Lexical index', () => {
  const lexicon = createScopeLexicon();
  lexicon.set('theme', 'Please add a night theme. The screen is blinding in the evening');
  lexicon.set('cafe', 'Crash with error E-1042 when saving the Café menu');
  lexicon.set('ada', 'Ada Lovelace · ada.lovelace@analytical.example');
  lexicon.set('push', 'No push notifications on Android');
  const ids = (query: string) => lexicon.search(query).map((hit) => hit.id);

  it('stems English words: "themes" finds "theme", "saved" finds "saving"', () => {
    expect(ids('themes')).to.deep.equal(['theme']);
    expect(ids('saved')).to.deep.equal(['cafe']);
  });

  it('folds accents both ways', () => {
    expect(ids('cafe')).to.deep.equal(['cafe']);
    expect(ids('évening')).to.deep.equal(['theme']);
  });

  it('folds however the text was composed, and the letters lower case does not fold (Unicode audit)', () => {
    const world = createScopeLexicon();
    world.set('nfd', 'Update the re\u0301sume\u0301, nai\u0308ve plan'); // accents as combining marks
    world.set('tr', 'Kırmızı düğme çalışmıyor');
    world.set('de', 'Die Straße ist gesperrt');
    world.set('el', 'ΟΔΟΣ ΚΛΕΙΣΤΗ');
    world.set('hi', 'नमस्ते दुनिया');
    const found = (query: string) => world.search(query).map((hit) => hit.id);
    for (const query of ['resume', 'résumé', 'naive', 'nai\u0308ve']) {
      expect(found(query), query).to.deep.equal(['nfd']);
    }
    expect(found('kirmizi')).to.deep.equal(['tr']);
    expect(found('KIRMIZI')).to.deep.equal(['tr']);
    expect(found('strasse')).to.deep.equal(['de']);
    expect(found('οδοσ')).to.deep.equal(['el']);
    // a Devanagari vowel sign is part of its word, not an accent: the whole word finds it
    expect(found('नमस्ते')).to.deep.equal(['hi']);
  });

  it('finds words inside text written without spaces (characters and their pairs)', () => {
    const cjk = createScopeLexicon();
    cjk.set('zh', '我们的用户希望应用支持深色模式');
    cjk.set('ja', '会議メモ：来週の予定');
    const found = (query: string) => cjk.search(query).map((hit) => hit.id);
    expect(found('用户')).to.deep.equal(['zh']);
    expect(found('深色模式')).to.deep.equal(['zh']);
    expect(found('会議')).to.deep.equal(['ja']);
    expect(cjk.search('深色模式')[0]?.coverage).to.equal(1);
    // "weather forecast" shares one character (予) with the memo: a sliver of coverage only
    expect(cjk.search('天気予報').every((hit) => hit.coverage < 0.2)).to.equal(true);
  });

  it('matches the last word as a prefix, and a word of five letters or more with a typo', () => {
    expect(ids('analyt')).to.deep.equal(['ada']);
    expect(ids('lovelce')).to.deep.equal(['ada']);
  });

  it('matches any word of four letters or more as a prefix (typed short), a shorter one only last', () => {
    // lexical-index.ts: "every word of four letters or more (a word typed short)"
    const [hit] = lexicon.search('noti andro');
    expect(hit).to.include({ id: 'push', coverage: 1 });
    // "ad" is a prefix of "ada" and "add": matched as the last word, not before another
    expect(ids('ad')).to.have.members(['ada', 'theme']);
    expect(lexicon.search('ad lovelace')[0]).to.include({ id: 'ada', coverage: 0.5 });
  });

  it('finds a word whose typo changes its stem, and two swapped letters, as one typo each', () => {
    // "notificatons" stems to "notificaton", "notifications" to "notif": one edit as written
    expect(ids('notificatons')).to.deep.equal(['push']);
    // a swap is two edits of Levenshtein distance: searched as the swapped-back word
    expect(ids('andriod')).to.deep.equal(['push']);
    const [hit] = lexicon.search('push notificatons on andriod');
    expect(hit).to.include({ id: 'push', coverage: 1 });
    // a swapped variant stands for its word once: coverage never counts it twice
    expect(lexicon.search('andriod andriod')[0]?.coverage).to.equal(1);
  });

  it('counts a typo match only for a word no text holds as typed', () => {
    // lexical-index.ts: "a typo match counts only for a query word no text holds as typed"
    const near = createScopeLexicon();
    near.set('h', 'note about lanternflyXh');
    expect(near.search('lanternflyXk')[0]).to.include({ id: 'h', coverage: 1 });
    near.set('k', 'note about lanternflyXk');
    const hits = near.search('lanternflyXk');
    expect(hits.find((hit) => hit.id === 'k')?.coverage).to.equal(1);
    expect(hits.find((hit) => hit.id === 'h')?.coverage ?? 0).to.equal(0);
  });

  it('finds codes and parts of an e-mail address', () => {
    expect(ids('E-1042')).to.deep.equal(['cafe']);
    expect(ids('lovelace')).to.deep.equal(['ada']);
  });

  it('ignores stop words and says how much of the query a text covers', () => {
    expect(ids('the of and')).to.deep.equal([]);
    const [hit] = lexicon.search('night theme spaceship');
    expect(hit.id).to.equal('theme');
    expect(hit.coverage).to.be.closeTo(2 / 3, 1e-9);
  });
});

describe('Hybrid search in the vector index', () => {
  it('finds a staged text by its words before it has a vector, and forgets a removed one', async () => {
    const index = createVectorIndex({
      name: 'items',
      embedder: placedEmbedder(() => [1, 0]),
      readStore: memoryReadStore(),
    });
    await index.stage('a', 'ws', 'Sync stops with ERR_4013');
    const [hit] = await index.search('ws', 'err_4013');
    expect(hit.id).to.equal('a');
    expect(hit.score).to.be.within(0.7, 1);
    await index.stage('a', 'ws', 'Sync stops with a timeout');
    expect(await index.search('ws', 'err_4013')).to.deep.equal([]);
    expect((await index.search('ws', 'timeout')).map((h) => h.id)).to.deep.equal(['a']);
    await index.remove('a');
    expect(await index.search('ws', 'timeout')).to.deep.equal([]);
  });

  it('ranks the text holding an exact code first even when the encoder ranks it low', async () => {
    // the query and "close" are near (cosine 0.6); "code" is far (cosine 0.1)
    const index = createVectorIndex({
      name: 'items',
      embedder: placedEmbedder((text) => {
        if (text === 'ERR_4013') return [1, 0];
        return text.includes('4013') ? [0.1, 0.995] : [0.6, 0.8];
      }),
      readStore: memoryReadStore(),
    });
    await index.upsert('close', 'ws', 'Desktop sync problems after sleep');
    await index.upsert('code', 'ws', 'The client shows ERR_4013 and stops');
    const semantic = await index.search('ws', 'ERR_4013', { mode: 'semantic' });
    expect(semantic.map((h) => h.id)).to.deep.equal(['close', 'code']);
    const hybrid = await index.search('ws', 'ERR_4013');
    expect(hybrid.map((h) => h.id)).to.deep.equal(['code', 'close']);
    for (const hit of hybrid) expect(hit.score).to.be.within(0, 1);
  });

  it('ranks a text not embedded yet first when it alone holds the query word as typed', async () => {
    // issue 14: "nothing is ever missing from results while it waits" — ten embedded texts one
    // letter away (semantic 0.67) must not push the fresh exact match out of the answer
    const index = createVectorIndex({
      name: 'notes',
      embedder: placedEmbedder((text) => (text.startsWith('lanternfly') ? [1, 0] : [0.67, 0.74])),
      readStore: memoryReadStore(),
    });
    for (const letter of 'abcdefghij')
      await index.upsert(letter, 'u', `note about lanternflyX${letter}`);
    // staged: in the lexical index at once, its vector not computed yet
    await index.stage('k', 'u', 'note about lanternflyXk');
    const hits = await index.search('u', 'lanternflyXk', { limit: 10 });
    expect(hits[0]?.id).to.equal('k');
  });

  it('keeps the semantic score of a paraphrase that shares no word with the query', async () => {
    const index = createVectorIndex({
      name: 'items',
      embedder: placedEmbedder((text) => (text.includes('night') ? [0.8, 0.6] : [1, 0])),
      readStore: memoryReadStore(),
    });
    await index.upsert('theme', 'ws', 'Please add a night theme');
    const [hit] = await index.search('ws', 'dark mode');
    expect(hit.id).to.equal('theme');
    expect(hit.score).to.be.closeTo(0.8, 1e-6);
  });

  /** the API role's reader of what another process (the writer) stages, over one store */
  function writerAndReader() {
    const readStore = memoryReadStore();
    const embedder = placedEmbedder(() => [1, 0]);
    return {
      writer: createVectorIndex({ name: 'items', embedder, readStore }),
      reader: createVectorIndex({ name: 'items', embedder, readStore, cacheTtlMs: 20 }),
    };
  }
  /** the ids a search of `q` finds once the reader reloaded both texts, polled up to 0.5 s */
  async function reloaded(reader: ReturnType<typeof writerAndReader>['reader'], q: string) {
    let ids: string[] = [];
    for (let i = 0; i < 50 && ids.length < 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      ids = (await reader.search('ws', q)).map((h) => h.id);
    }
    return ids;
  }

  it('in a process that does not write, answers from its copy while it reloads a stale one', async () => {
    // the API role: another process stages texts; this one re-reads them when over cacheTtlMs old
    const { writer, reader } = writerAndReader();
    await writer.stage('a', 'ws', 'Zapier trigger for new entries');
    expect((await reader.search('ws', 'zapier')).map((h) => h.id)).to.deep.equal(['a']);
    await writer.stage('b', 'ws', 'Another zapier idea');
    await new Promise((resolve) => setTimeout(resolve, 30));
    // stale: answered from the copy at once, the reload runs behind it
    expect((await reader.search('ws', 'zapier')).map((h) => h.id)).to.deep.equal(['a']);
    expect(await reloaded(reader, 'zapier')).to.have.members(['a', 'b']);
  });

  it('reloads a stale copy on the monotonic clock: a step back of the wall clock does not keep it for the step', async () => {
    // time audit: stepped back an hour, an API process searched its stale copy for the hour
    const clock = steppableWallClock();
    try {
      const { writer, reader } = writerAndReader();
      await writer.stage('a', 'ws', 'Zapier trigger for new entries');
      expect((await reader.search('ws', 'zapier')).map((h) => h.id)).to.deep.equal(['a']);
      clock.step(-3_600_000);
      await writer.stage('b', 'ws', 'Another zapier idea');
      expect(await reloaded(reader, 'zapier')).to.have.members(['a', 'b']);
    } finally {
      clock.restore();
    }
  });
});
