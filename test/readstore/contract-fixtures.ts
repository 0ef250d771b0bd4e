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

/** What an update contract's cases use: the seeded items, item 'a' with `closedAt: null`. */
export interface UpdateCases {
  harness(): ReadStoreHarness;
  items(): Collection<Item>;
  /** each update of item 'a' is refused, and 'a' is as it was */
  expectRefused(updates: Record<string, unknown>[]): Promise<void>;
}

/** Opens a store for each case, seeds the items (item 'a' with `closedAt: null`), runs `cases`. */
export function updateContract(open: OpenHarness, cases: (t: UpdateCases) => void): void {
  let harness: ReadStoreHarness;
  const items = () => harness.store.collection<Item>('items');
  beforeEach(async () => {
    harness = await open();
    await seedItems(harness.store);
    await items().updateOne({ _id: 'a' }, { $set: { closedAt: null } });
  });
  afterEach(async () => harness.cleanup());
  cases({
    harness: () => harness,
    items,
    expectRefused: (updates) => expectUpdatesRefused(items(), updates),
  });
}
