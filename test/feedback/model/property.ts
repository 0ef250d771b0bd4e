/**
 * The board model's property (board-model.e2e.test.ts, replay.e2e.test.ts): the commands it
 * draws and, per run, a fresh workspace whose webhook messages are checked at the end.
 */
import fc from 'fast-check';
import { type ModelSettings, modelCommands, routeSeed } from '../../support/model-runs.js';
import { Route } from '../../support/route.js';
import { Outsider, PlusOne, RetryKeyed, ReuseKey, Submit, TimePasses } from './board-writes.js';
import { Burst } from './bursts.js';
import { Reply, SetStatus, TagItem, UpdateItem } from './item-writes.js';
import { checkWebhooks, ReadFeed, ReadFeedFiltered } from './messages.js';
import { emptyModel, MESSAGE_TYPES, type Model, PRODUCTS, STATUSES } from './model.js';
import { ListItems, ListProducts, ReplayItem } from './reads.js';
import { freshBoard, type Real, type Service, SPLIT } from './world.js';

/** MODEL_SPREAD changes the commands drawn: a replay sets it again */
export const BOARD_MODEL = { runs: 30, commands: 40, shapedBy: ['MODEL_SPREAD'] };

const actor = fc.constantFrom('owner' as const, 'member' as const);
/** which item a command picks (modulo the items there are): MODEL_SPREAD=0 piles on the first */
const index = fc.nat(Number(process.env.MODEL_SPREAD ?? 50));
const keyed = fc.boolean();
const product = fc.constantFrom(...PRODUCTS);
const BODIES = [
  'Dark mode please',
  'Export to CSV\nwith the headers',
  '\n  Keyboard   shortcuts for triage  \n',
  'Dark mode please ',
];
const TAGS = ['ux', ' ux', 'api', 'café', 'cafe\u0301', 'bug'];
/** mostly valid values, sometimes one the API must refuse */
const mostly = <T>(valid: T[], invalid: T[]) =>
  fc.oneof({ arbitrary: fc.constantFrom(...valid), weight: 4 }, fc.constantFrom(...invalid));
const status = mostly<string>([...STATUSES], ['done', 'Shipped', '']);
const title = mostly(['Sounds good', '  Padded  ', 'Dark mode'], ['   ', 'Line one\nline two']);
const text = mostly(['Sounds good', 'Line one\nline two', '  padded  '], ['   ', '\t']);

const writes = [
  fc
    .tuple(
      actor,
      product,
      fc.constantFrom(null, 'ann' as const, 'bo' as const),
      fc.constantFrom(...BODIES),
      fc.constantFrom(undefined, '', '  ', 'Dark mode', '  Padded title  '),
      keyed,
    )
    .map((args) => new Submit(...args)),
  fc.tuple(actor, index, status, keyed).map((args) => new SetStatus(...args)),
  fc
    .tuple(
      actor,
      index,
      fc.oneof(
        { arbitrary: fc.record({ title, body: text, status }, { requiredKeys: [] }), weight: 9 },
        fc.constant({ rank: '0' }),
      ),
      keyed,
    )
    .map((args) => new UpdateItem(...args)),
  fc
    .tuple(actor, index, fc.array(fc.constantFrom(...TAGS, '  '), { maxLength: 4 }), keyed)
    .map((args) => new TagItem(...args)),
  fc
    .tuple(
      actor,
      index,
      text,
      fc.oneof(fc.constant(null), fc.nat(9), fc.constant('bogus' as const)),
      keyed,
    )
    .map((args) => new Reply(...args)),
  fc.tuple(fc.constantFrom(0 as const, 1 as const), index).map((args) => new PlusOne(...args)),
  fc
    .tuple(
      index,
      fc.array(fc.record({ actor, kind: fc.constantFrom('reply' as const, 'tags' as const) }), {
        minLength: 2,
        maxLength: 5,
      }),
    )
    .map((args) => new Burst(...args)),
];

const others = [
  ...(SPLIT ? [] : [fc.constant(new TimePasses())]),
  index.map((i) => new RetryKeyed(i)),
  fc
    .tuple(index, fc.constantFrom('status' as const, 'reply' as const, 'tags' as const))
    .map((args) => new ReuseKey(...args)),
  index.map((i) => new Outsider(i)),
  fc
    .tuple(
      product,
      fc.record(
        {
          status: fc.constantFrom(...STATUSES),
          tag: fc.constantFrom(...TAGS),
          personOf: fc.constantFrom('owner' as const, 'ann' as const, 'v0' as const, 'v1' as const),
        },
        { requiredKeys: [] },
      ),
      fc.integer({ min: 1, max: 4 }),
    )
    .map((args) => new ListItems(...args)),
  fc.constant(new ListProducts()),
  fc
    .tuple(index, fc.integer({ min: 1, max: 4 }), fc.nat(20))
    .map((args) => new ReplayItem(...args)),
  fc.integer({ min: 1, max: 5 }).map((n) => new ReadFeed(n)),
  fc
    .tuple(product, fc.subarray([...MESSAGE_TYPES], { minLength: 1 }))
    .map((args) => new ReadFeedFiltered(...args)),
];
/** writes twice as often as the rest, so items grow long histories */
const commands: fc.Arbitrary<fc.AsyncCommand<Model, Real>>[] = [...writes, ...writes, ...others];

export function boardModelProperty(service: Service, settings: ModelSettings) {
  return fc.asyncProperty(modelCommands(commands, settings), routeSeed, async (sequence, seed) => {
    const real = await freshBoard(service, new Route(seed));
    const model = emptyModel();
    await fc.asyncModelRun(() => ({ model, real }), sequence);
    await checkWebhooks(model, real);
    if (settings.log) console.log(`${sequence}`);
  });
}
