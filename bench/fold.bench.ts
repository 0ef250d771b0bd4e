/**
 * `npm run bench:fold` — rebuilding a decider's state from its stream (a cold fold: after a
 * restart, or when the command handler's state cache evicted the stream) costs the same per
 * event however long the stream is. That fold runs on the thread that serves every request, and
 * it used to copy everything folded so far per event: 16,000 +1s on one item took 85 s, 20,000
 * items of one product 130 s (resource audit). See commands/item/roster.ts.
 *
 * For each stream shape, n and 2n events are folded with the decider's own evolve, each the best
 * of BENCH_FOLD_RUNS (default 5), and printed with the time per event and the ratio
 * fold(2n) / fold(n): about 2 when the cost per event is constant (linear), about 4 when it
 * grows with the stream (quadratic). The baseline is the same fold at half the length, in the
 * same run. Shapes:
 *   - item, +1s: n people +1 one item (what anyone can drive, no account needed);
 *   - item, toggles: n people +1 it and withdraw again (2 events each; n = people);
 *   - product, allocations: n items numbered in one product (a board's submissions, import-items).
 * Then, on the 2n-event states, what one more command costs (decide + evolve), against the same
 * command on a fresh stream. BENCH_FOLD_ITEM_SIZES (default "16000,100000") and
 * BENCH_FOLD_PRODUCT_SIZES (default "20000,100000") set n, the first sizes as the audit measured.
 */
import { randomBytes } from 'node:crypto';
import {
  type ItemCommand,
  type ItemEvent,
  type ItemState,
  itemDecider,
} from '../commands/item/index.js';
import {
  type ProductCommand,
  type ProductEvent,
  type ProductState,
  productDecider,
} from '../commands/product/index.js';
import type { Decider, DomainEvent } from '../commands/shared/decider.js';

const RUNS = Number(process.env.BENCH_FOLD_RUNS ?? 5);
const sizes = (given: string | undefined, byDefault: string) =>
  (given ?? byDefault).split(',').map(Number);
const ITEM_SIZES = sizes(process.env.BENCH_FOLD_ITEM_SIZES, '16000,100000');
const PRODUCT_SIZES = sizes(process.env.BENCH_FOLD_PRODUCT_SIZES, '20000,100000');
const log = (line = '') => process.stdout.write(`${line}\n`);
const id = () => randomBytes(12).toString('base64url');

const captured: ItemEvent = {
  type: 'ItemCaptured',
  data: {
    workspaceId: 'w1',
    productKey: 'WEB',
    itemKey: 'WEB-1',
    number: 1,
    title: 'Dark mode',
    body: 'Please add a dark mode',
    author: { personId: 'p0', tier: 'anonymous', displayName: null, avatar: null },
  },
};
const created: ProductEvent = {
  type: 'ProductCreated',
  data: { workspaceId: 'w1', key: 'WEB', name: 'Web', visibility: 'public' },
};

const plusOnes = (n: number): ItemEvent[] => [
  captured,
  ...Array.from({ length: n }, (): ItemEvent => plusOne(`p_${id()}`)),
];
const toggles = (n: number): ItemEvent[] => [
  captured,
  ...Array.from({ length: n }, (): ItemEvent[] => {
    const personId = `p_${id()}`;
    return [
      plusOne(personId),
      {
        type: 'PlusOneWithdrawn',
        data: { personId, addressedTo: 'WEB-1', plusOneAt: null, participant: null },
      },
    ];
  }).flat(),
];
const allocations = (n: number): ProductEvent[] => [
  created,
  ...Array.from(
    { length: n },
    (_, i): ProductEvent => ({
      type: 'ItemNumberAllocated',
      data: { number: i + 1, itemKey: `WEB-${i + 1}`, submissionId: id() },
    }),
  ),
];
function plusOne(personId: string): ItemEvent {
  return { type: 'PlusOneAdded', data: { personId, addressedTo: 'WEB-1' } };
}

function fold<S, E extends DomainEvent>(decider: Decider<S, never, E>, events: readonly E[]) {
  let best = Number.POSITIVE_INFINITY;
  let state = decider.initialState();
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    state = events.reduce(decider.evolve, decider.initialState());
    best = Math.min(best, performance.now() - started);
  }
  return { ms: best, state };
}

/** decide + evolve of one more command, the mean of 1,000 (a warm write on the folded state). */
function oneMore<S, C, E extends DomainEvent>(decider: Decider<S, C, E>, state: S, command: C) {
  const started = performance.now();
  for (let i = 0; i < 1000; i++) decider.decide(command, state).reduce(decider.evolve, state);
  return us((performance.now() - started) / 1000);
}

const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 0)} ms`;
const us = (n: number) => `${(n * 1000).toFixed(2)} µs`;

function shape<S, E extends DomainEvent>(
  name: string,
  decider: Decider<S, never, E>,
  make: (n: number) => E[],
  n: number,
  quiet = false,
): S {
  const once = make(n);
  const twice = make(2 * n);
  const a = fold(decider, once);
  const b = fold(decider, twice);
  if (quiet) return b.state;
  log(
    `${name.padEnd(22)} n ${String(n).padStart(7)}: ${ms(a.ms).padStart(9)} (${us(a.ms / once.length).padStart(9)}/event)` +
      `   2n: ${ms(b.ms).padStart(9)} (${us(b.ms / twice.length).padStart(9)}/event)` +
      `   fold(2n)/fold(n) ${(b.ms / a.ms).toFixed(2)}`,
  );
  return b.state;
}

const item = itemDecider as Decider<ItemState, never, ItemEvent>;
const product = productDecider as Decider<ProductState, never, ProductEvent>;
// warm the JIT on small folds first, so the first shape is not charged for it
shape('warm-up', item, plusOnes, 2000, true);
shape('warm-up', product, allocations, 2000, true);
log(`cold folds, best of ${RUNS}; fold(2n)/fold(n) ~2: linear, ~4: quadratic`);
const items: { n: number; state: ItemState }[] = [];
const products: { n: number; state: ProductState }[] = [];
for (const n of ITEM_SIZES) {
  items.push({ n: 2 * n, state: shape('item, +1s', item, plusOnes, n) });
  shape('item, +1 and withdraw', item, toggles, n);
}
for (const n of PRODUCT_SIZES) {
  products.push({ n: 2 * n, state: shape('product, allocations', product, allocations, n) });
}

log();
log('one more command on the folded 2n state (decide + evolve, mean of 1,000) vs a fresh stream');
const freshItem = itemDecider.evolve(itemDecider.initialState(), captured);
const freshProduct = productDecider.evolve(productDecider.initialState(), created);
const add: ItemCommand = { type: 'AddPlusOne', data: { personId: 'q1' } };
const allocate: ProductCommand = {
  type: 'AllocateItemNumber',
  data: { submissionId: 'another', allowPrivate: false },
};
for (const { n, state } of items) {
  const withdraw: ItemCommand = {
    type: 'WithdrawPlusOne',
    data: { personId: firstPlusOne(state) },
  };
  // one who also replied stays on the item: their standing afterwards is counted, O(n)
  const replied = itemDecider.evolve(state, {
    type: 'ItemReplied',
    data: {
      replyId: 'r1',
      parentId: null,
      authorKind: 'person',
      authorId: withdraw.data.personId,
      authorName: null,
      authorAvatar: null,
      body: 'me too',
    },
  });
  log(
    `item with ${n} +1s: AddPlusOne ${oneMore(itemDecider, state, add)} (fresh ${oneMore(itemDecider, freshItem, add)}),` +
      ` WithdrawPlusOne ${oneMore(itemDecider, state, withdraw)}, by one who also replied ${oneMore(itemDecider, replied, withdraw)}`,
  );
}
for (const { n, state } of products) {
  log(
    `product with ${n} items: AllocateItemNumber ${oneMore(productDecider, state, allocate)} (fresh ${oneMore(productDecider, freshProduct, allocate)})`,
  );
}

function firstPlusOne(state: ItemState): string {
  if (state.status === 'absent') throw new Error('not captured');
  const first = state.roster.log.get(1);
  if (!first) throw new Error('no +1');
  return first.personId;
}
