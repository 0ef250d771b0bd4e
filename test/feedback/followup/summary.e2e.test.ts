import { expect } from 'chai';
import fc from 'fast-check';
import type { ItemStatus } from '../../../commands/item/index.js';
import { toItem } from '../../../projections/items/document.js';
import { listItems } from '../../../projections/items/queries.js';
import { itemText } from '../../../src/feedback/search/texts.js';
import { LEXICAL_WEIGHT } from '../../../src/search/hybrid.js';
import { fakeEmbedder } from '../../search/support/fake-embedder.js';
import { registerPerson, startWorld, type World } from './support/world.js';

const STATUSES: ItemStatus[] = ['new', 'planned', 'in-progress', 'shipped', 'declined'];
const TAGS = ['ui', 'api', 'bug'];
const WORDS = ['dark', 'mode', 'export', 'csv', 'login', 'slow', 'theme', 'night'];
const THRESHOLD = 0.3;

interface Seed {
  status: ItemStatus;
  tags: string[];
  plusOnes: number;
  words: string[];
}

const seedArb = fc.record({
  status: fc.constantFrom(...STATUSES),
  tags: fc.subarray(TAGS),
  plusOnes: fc.integer({ min: 0, max: 3 }),
  words: fc.subarray(WORDS, { minLength: 1, maxLength: 3 }),
});

describe('summarize_feedback over HTTP', () => {
  let world: World;
  let voters: string[];
  let products = 0;
  const embedder = fakeEmbedder();
  before(async () => {
    world = await startWorld({ embedder, matchThreshold: THRESHOLD });
    voters = [];
    for (const name of ['v1', 'v2', 'v3'])
      voters.push(await registerPerson(world, { email: `${name}@x.io`, name }));
  });
  after(() => world.stop());

  async function seedProduct(seeds: Seed[]): Promise<{ key: string; keys: string[] }> {
    const n = products++;
    const key = `P${String.fromCharCode(65 + Math.floor(n / 26))}${String.fromCharCode(65 + (n % 26))}`;
    await world.createProduct(key);
    const keys: string[] = [];
    for (const [i, seed] of seeds.entries()) {
      world.advance(1000);
      const { itemKey } = await world.submit({
        product: key,
        anonymousId: `${key}-${i}`,
        title: seed.words.join(' '),
        body: `item ${i}`,
      });
      if (seed.status !== 'new') await world.setStatus(itemKey, seed.status);
      if (seed.tags.length) await world.tag(itemKey, seed.tags);
      for (const voter of voters.slice(0, seed.plusOnes)) await world.plusOne(itemKey, voter);
      keys.push(itemKey);
    }
    return { key, keys };
  }

  /** every item list_items returns for the filters, walking its pages */
  async function walkList(productKey: string, filters: { status?: ItemStatus; tag?: string }) {
    const all = [];
    let after: string | null = null;
    do {
      const page = await listItems(world.readStore, {
        workspaceId: world.workspaceId,
        productKey,
        ...filters,
        after,
        limit: 4,
      });
      all.push(...page.items.map(toItem));
      after = page.nextAfter;
    } while (after);
    return all;
  }

  const summary = async (key: string, query: Record<string, string | number>) => {
    const qs = new URLSearchParams(
      Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
    );
    const res = await world.api().get(`/v1/workspaces/${world.slug}/products/${key}/summary?${qs}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body;
  };

  describe('When filtered by status and tag over random data', () => {
    it('counts exactly what list_items returns for the same filters', async () => {
      // spec "Synthesis": "it returns a slice of feedback plus exact counts"
      await fc.assert(
        fc.asyncProperty(
          fc.array(seedArb, { maxLength: 10 }),
          fc.option(fc.constantFrom(...STATUSES), { nil: undefined }),
          fc.option(fc.constantFrom(...TAGS), { nil: undefined }),
          fc.integer({ min: 1, max: 6 }),
          async (seeds, status, tag, limit) => {
            const { key } = await seedProduct(seeds);
            const filters = { ...(status ? { status } : {}), ...(tag ? { tag } : {}) };
            const listed = await walkList(key, filters);
            // an oracle independent of the read store: the generated data itself
            const expected = seeds.filter(
              (s) => (!status || s.status === status) && (!tag || s.tags.includes(tag)),
            );
            const body = await summary(key, { ...filters, limit });
            expect(body.count).to.equal(listed.length).and.to.equal(expected.length);
            const byStatus = Object.fromEntries(STATUSES.map((s) => [s, 0]));
            for (const item of listed) byStatus[item.status]++;
            expect(body.byStatus).to.deep.equal(byStatus);
            const byTag: Record<string, number> = {};
            for (const item of listed) for (const t of item.tagIds) byTag[t] = (byTag[t] ?? 0) + 1;
            expect(body.byTag).to.deep.equal(byTag);
            expect(body.items).to.deep.equal(listed.slice(0, limit));
            const top = [...listed]
              .filter((i) => i.plusOneCount > 0)
              .sort((a, b) => b.plusOneCount - a.plusOneCount || a.rank.localeCompare(b.rank))
              .slice(0, 10)
              .map(({ id, title, status: s, plusOneCount }) => ({
                id,
                title,
                status: s,
                plusOneCount,
              }));
            expect(body.topItems).to.deep.equal(top);
          },
        ),
        { numRuns: 8 },
      );
    });
  });

  describe('When tags are named like properties every object has', () => {
    it('counts them like any other tag', async () => {
      // spec: "returns a slice of feedback plus exact counts"; a tag id is any string of 1 to 60
      // characters, `__proto__` included
      const { key } = await seedProduct([
        { words: ['alpha'], status: 'new', tags: ['__proto__', 'constructor'], plusOnes: 0 },
        { words: ['beta'], status: 'new', tags: ['__proto__'], plusOnes: 0 },
      ]);
      const body = await summary(key, {});
      expect(Object.entries(body.byTag)).to.deep.equal([
        ['__proto__', 2],
        ['constructor', 1],
      ]);
      expect((await summary(key, { tag: '__proto__' })).byTag).to.have.own.property('__proto__', 2);
    });
  });

  describe('When q is given', () => {
    it('counts every item of the filtered set scoring at least the match threshold against q', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(seedArb, { minLength: 1, maxLength: 10 }),
          fc.subarray(WORDS, { minLength: 1, maxLength: 2 }),
          fc.option(fc.constantFrom(...STATUSES), { nil: undefined }),
          async (seeds, qWords, status) => {
            const { key } = await seedProduct(seeds);
            await world.search.whenIdle();
            const q = qWords.join(' ');
            const listed = await walkList(key, status ? { status } : {});
            const [qv, ...vectors] = await embedder.embed([q, ...listed.map((i) => itemText(i))]);
            const dot = (v: Float32Array) => v.reduce((sum, x, i) => sum + x * qv![i]!, 0);
            // the documented score: 1 − (1 − semantic) · (1 − 0.7 · coverage³), coverage being the
            // share of q's words the item holds (its title is its words: no stem or typo overlaps)
            const coverage = (title: string) =>
              qWords.filter((w) => title.split(' ').includes(w)).length / qWords.length;
            const score = (i: number) =>
              1 -
              (1 - Math.max(0, dot(vectors[i]!))) *
                (1 - LEXICAL_WEIGHT * coverage(listed[i]!.title) ** 3);
            const matching = listed.filter((_, i) => score(i) >= THRESHOLD);
            const body = await summary(key, { q, ...(status ? { status } : {}), limit: 200 });
            expect(body.count).to.equal(matching.length);
            expect(body.items.map((i: { id: string }) => i.id).sort()).to.deep.equal(
              matching.map((i) => i.id).sort(),
            );
            const byStatus = Object.fromEntries(STATUSES.map((s) => [s, 0]));
            for (const item of matching) byStatus[item.status]++;
            expect(body.byStatus).to.deep.equal(byStatus);
          },
        ),
        { numRuns: 5 },
      );
    });
  });

  describe('When the query is out of bounds or the product unknown', () => {
    it('answers 400 for a bad limit, status or q and 404 for an unknown product', async () => {
      const base = `/v1/workspaces/${world.slug}/products/ACME/summary`;
      for (const qs of [
        'limit=0',
        'limit=201',
        'status=done',
        `q=${'x'.repeat(501)}`,
        'q=',
        'tag=',
      ]) {
        const res = await world.api().get(`${base}?${qs}`);
        expect(res.status, qs).to.equal(400);
        expect(res.body.code).to.equal('invalid-argument');
      }
      const unknown = await world.api().get(`/v1/workspaces/${world.slug}/products/NOPE/summary`);
      expect(unknown.status).to.equal(404);
    });
  });
});
