/**
 * Contract: declared indexes never change answers. The same random documents and writes go to
 * an indexed and an unindexed collection; every random query must return the same documents
 * from both (the index only narrows which documents are scanned).
 */
import { expect } from 'chai';
import fc from 'fast-check';
import type { Doc, Filter, ReadStore } from '../../src/readstore/types.js';
import type { OpenHarness, ReadStoreHarness } from './contract-fixtures.js';

const scalar = fc.oneof(fc.constantFrom('x', 'y', 'z', 1, 2, true), fc.constant(null));
const groupValue = fc.oneof(
  scalar,
  fc.constant(undefined),
  fc.uniqueArray(fc.constantFrom('x', 'y', 1), { maxLength: 2 }),
);

const docArb = fc.record({
  g: groupValue,
  h: fc.oneof(scalar, fc.constant(undefined)),
  n: fc.integer({ min: 0, max: 9 }),
});

type Write =
  | { kind: 'insert'; doc: Record<string, unknown> }
  | { kind: 'set'; at: number; field: 'g' | 'h'; value: unknown }
  | { kind: 'delete'; at: number };

const writeArb: fc.Arbitrary<Write> = fc.oneof(
  docArb.map((doc) => ({ kind: 'insert' as const, doc })),
  fc.record({
    kind: fc.constant('set' as const),
    at: fc.nat(),
    field: fc.constantFrom('g' as const, 'h' as const),
    value: scalar,
  }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
);

const pinned = fc.oneof(
  scalar,
  scalar.map((v) => ({ $eq: v })),
  fc.uniqueArray(scalar, { minLength: 1, maxLength: 3 }).map((v) => ({ $in: v })),
);

const queryArb = fc.record({
  g: pinned,
  h: fc.option(pinned, { nil: undefined }),
  extra: fc.option(fc.constantFrom<Filter>({ n: { $gte: 3 } }, { $or: [{ n: 1 }, { h: 'x' }] }), {
    nil: undefined,
  }),
  sorted: fc.boolean(),
  limit: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
});

function strip(doc: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(doc).filter(([, v]) => v !== undefined));
}

export function indexContract(open: OpenHarness, runs: number): void {
  let harness: ReadStoreHarness;
  let store: ReadStore;
  beforeEach(async () => {
    harness = await open();
    store = harness.store;
  });
  afterEach(async () => harness.cleanup());

  describe('When a non-unique index is declared on a collection that already holds equal keys', () => {
    it('accepts it and the documents stay findable through it', async () => {
      const c = store.collection('late_index');
      await c.insertOne({ _id: 'a', scope: 's1' });
      await c.insertOne({ _id: 'b', scope: 's1' });
      await c.createIndex({ keys: { scope: 1 } });
      await c.insertOne({ _id: 'c', scope: 's1' });
      const found = await c.find({ scope: 's1' }, { sort: { _id: 1 } });
      expect(found.map((d) => d._id)).to.deep.equal(['a', 'b', 'c']);
    });
  });

  describe('When the same data is queried through an index bucket and by a full scan', () => {
    it('returns the same documents in the same order', async () => {
      let round = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(writeArb, { minLength: 1, maxLength: 25 }),
          fc.array(queryArb, { minLength: 1, maxLength: 5 }),
          async (writes, queries) => {
            round++;
            const plain = store.collection(`plain${round}`);
            const indexed = store.collection(`indexed${round}`);
            await indexed.createIndex({ keys: { g: 1, h: 1, n: -1 } });
            const live: string[] = [];
            let next = 0;
            for (const write of writes) {
              if (write.kind === 'insert') {
                const doc = { _id: `d${next++}`, ...strip(write.doc) } as Doc;
                await plain.insertOne(doc);
                await indexed.insertOne(doc);
                live.push(doc._id);
              } else if (live.length > 0) {
                const _id = live[write.at % live.length]!;
                if (write.kind === 'set') {
                  await plain.updateOne({ _id }, { $set: { [write.field]: write.value } });
                  await indexed.updateOne({ _id }, { $set: { [write.field]: write.value } });
                } else {
                  await plain.deleteOne({ _id });
                  await indexed.deleteOne({ _id });
                  live.splice(live.indexOf(_id), 1);
                }
              }
            }
            for (const query of queries) {
              const filter: Filter = { g: query.g };
              if (query.h !== undefined) filter.h = query.h;
              if (query.extra) Object.assign(filter, query.extra);
              const options = query.sorted ? { sort: { n: -1 as const }, limit: query.limit } : {};
              const expected = await plain.find(filter, options);
              const actual = await indexed.find(filter, options);
              if (query.sorted) expect(actual).to.deep.equal(expected);
              else expect(byId(actual)).to.deep.equal(byId(expected));
              expect(await indexed.countDocuments(filter)).to.equal(
                await plain.countDocuments(filter),
              );
            }
            await store.dropCollection(`plain${round}`);
            await store.dropCollection(`indexed${round}`);
          },
        ),
        { numRuns: runs },
      );
    });
  });
}

function byId(docs: Doc[]): Doc[] {
  return [...docs].sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
}
