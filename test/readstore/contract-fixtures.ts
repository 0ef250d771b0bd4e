/** Shared fixtures of the read-store contract. */
import { expect } from 'chai';
import type { Collection, ReadStore } from '../../src/readstore/types.js';

export interface ReadStoreHarness {
  store: ReadStore;
  /** close the store and open the same storage again (a process restart) */
  reopen(): Promise<ReadStore>;
  /** embedded: writes reach disk only with flush; MongoDB: every acknowledged write is durable */
  flushMakesDurable: boolean;
  /**
   * false for a server that speaks MongoDB's protocol without being MongoDB (the engines'
   * stand-in, DocumentDB behind a wire gateway: ../shared/engines/README.md), whose parser takes
   * or refuses a few filters and updates otherwise; the cases it differs on are skipped there
   */
  parsesLikeMongoDB: boolean;
  cleanup(): Promise<void>;
}

/** Skips the running case, saying why, on a server whose parser is not MongoDB's. */
export function onlyWhereParsedLikeMongoDB(
  test: Mocha.Context,
  harness: ReadStoreHarness,
  difference: string,
): void {
  if (harness.parsesLikeMongoDB) return;
  console.log(`    not MongoDB's parser, which this case holds: ${difference}`);
  test.skip();
}

export type OpenHarness = () => Promise<ReadStoreHarness>;

export interface Item {
  _id: string;
  workspaceId: string;
  status: 'open' | 'planned' | 'done';
  votes: number;
  tags: string[];
  author: { name: string; email?: string };
  closedAt?: string;
  [key: string]: unknown;
}

export const ITEMS: Item[] = [
  {
    _id: 'a',
    workspaceId: 'w1',
    status: 'open',
    votes: 5,
    tags: ['ui', 'bug'],
    author: { name: 'Ann', email: 'ann@x.io' },
  },
  {
    _id: 'b',
    workspaceId: 'w1',
    status: 'planned',
    votes: 12,
    tags: ['api'],
    author: { name: 'Bob' },
  },
  {
    _id: 'c',
    workspaceId: 'w1',
    status: 'done',
    votes: 1,
    tags: [],
    author: { name: 'Cy' },
    closedAt: '2024-05-01',
  },
  { _id: 'd', workspaceId: 'w2', status: 'open', votes: 7, tags: ['ui'], author: { name: 'Ann' } },
  { _id: 'e', workspaceId: 'w2', status: 'open', votes: 0, tags: ['bug'], author: { name: 'Dee' } },
];

export async function seedItems(store: ReadStore, name = 'items'): Promise<void> {
  const items = store.collection<Item>(name);
  for (const item of ITEMS) await items.insertOne(structuredClone(item));
}

export function ids(docs: { _id: string }[]): string[] {
  return docs.map((doc) => doc._id);
}

export function sortedIds(docs: { _id: string }[]): string[] {
  return ids(docs).sort();
}

/** The error a promise rejects with (fails the test, naming `what`, when it resolves). */
export async function rejection(promise: Promise<unknown>, what?: string): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  const named = what === undefined ? '' : `: ${what}`;
  throw new Error(`expected the operation to be rejected, but it succeeded${named}`);
}

/** Each update of item 'a' is refused (naming the one that was not), and 'a' is as it was. */
export async function expectUpdatesRefused(
  items: Collection<Item>,
  updates: Record<string, unknown>[],
): Promise<void> {
  const before = await items.findOne({ _id: 'a' });
  for (const update of updates) {
    const what = JSON.stringify(update);
    expect(await rejection(items.updateOne({ _id: 'a' }, update), what)).to.be.instanceOf(Error);
  }
  expect(await items.findOne({ _id: 'a' })).to.deep.equal(before);
}

/** What a contract's cases use: for each case a store of its own. */
export interface ContractCases {
  harness(): ReadStoreHarness;
  store(): ReadStore;
  /** the seeded items */
  items(): Collection<Item>;
}

/** Opens a store for each case, `seed`s it (the items unless told) and hands `cases` its parts. */
export function contractCases(
  open: OpenHarness,
  cases: (t: ContractCases) => void,
  seed: (store: ReadStore) => Promise<void> = seedItems,
): void {
  let harness: ReadStoreHarness;
  const store = () => harness.store;
  beforeEach(async () => {
    harness = await open();
    await seed(store());
  });
  afterEach(async () => harness.cleanup());
  cases({ harness: () => harness, store, items: () => store().collection<Item>('items') });
}

/** What an update contract's cases use besides: item 'a' has `closedAt: null`. */
export interface UpdateCases extends ContractCases {
  /** each update of item 'a' is refused, and 'a' is as it was */
  expectRefused(updates: Record<string, unknown>[]): Promise<void>;
}

/** contractCases with item 'a' given `closedAt: null`, and expectRefused. */
export function updateContract(open: OpenHarness, cases: (t: UpdateCases) => void): void {
  const seed = async (store: ReadStore) => {
    await seedItems(store);
    await store.collection<Item>('items').updateOne({ _id: 'a' }, { $set: { closedAt: null } });
  };
  contractCases(
    open,
    (t) => cases({ ...t, expectRefused: (updates) => expectUpdatesRefused(t.items(), updates) }),
    seed,
  );
}
