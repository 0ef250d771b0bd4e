/**
 * The feedback board against a model of it (model-based, over real HTTP): random sequences of
 * submissions, status changes (every enum value and values outside it), edits, tags, replies,
 * writes sent together to one item, +1 toggles, time passing, Idempotency-Key retries and reuses, an outsider's attempts, and reads
 * — get_item after every write (read-your-writes), list_items with filters and paging,
 * list_products, history folded by an auditor, as-of reads, the event feed, and at the end of
 * each run the webhook receiver's messages. Each run is a fresh workspace of one service.
 *
 * The defaults take about 10 s here. Longer exploration: MODEL_RUNS (runs, default 30),
 * MODEL_COMMANDS (most commands a run, default 40); MODEL_SEED and MODEL_PATH replay a failure
 * fast-check printed; MODEL_LOG=1 prints every sequence run; MODEL_SPREAD=0 sends every item
 * command to the first item, for long histories (as-of snapshots every 64 revisions).
 *
 * MODEL_TARGET=split runs it against the production shape instead (README "Running on KurrentDB +
 * MongoDB"; needs EVENTSTORE_URL and MONGODB_URL, ../shared/engines/up.sh): two `start:api`
 * processes, a `start:projector` and a `start:webhooks`, each request sent to either API process
 * at random, so a write answered by one is read back through the other. Makers, workspaces and
 * products are seeded as the admin CLI does it. TimePasses is left out there: it moves the
 * in-process clock, and the processes keep the machine's time.
 */
import fc from 'fast-check';
import { Outsider, PlusOne, RetryKeyed, ReuseKey, Submit, TimePasses } from './board-writes.js';
import { Burst } from './bursts.js';
import { Reply, SetStatus, TagItem, UpdateItem } from './item-writes.js';
import { checkWebhooks, ReadFeed, ReadFeedFiltered } from './messages.js';
import { emptyModel, MESSAGE_TYPES, PRODUCTS, STATUSES } from './model.js';
import { ListItems, ListProducts, ReplayItem } from './reads.js';
import { freshBoard, type Service, SPLIT, startService, stopService } from './world.js';

const RUNS = Number(process.env.MODEL_RUNS ?? 30);
const COMMANDS = Number(process.env.MODEL_COMMANDS ?? 40);

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
const commands = [...writes, ...writes, ...others];

describe('The feedback board against a model of it (e2e, model-based)', function () {
  this.timeout(Math.max(60_000, RUNS * COMMANDS * 2_000));
  let service: Service;
  before(async () => {
    service = await startService();
  });
  after(() => stopService(service));

  it('When any sequence of writes and reads runs, then every answer agrees with the model', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.commands(commands, { maxCommands: COMMANDS, size: 'max' }),
        async (sequence) => {
          const real = await freshBoard(service);
          const model = emptyModel();
          await fc.asyncModelRun(() => ({ model, real }), sequence);
          await checkWebhooks(model, real);
          if (process.env.MODEL_LOG) console.log(`${sequence}`);
        },
      ),
      {
        numRuns: RUNS,
        ...(process.env.MODEL_SEED ? { seed: Number(process.env.MODEL_SEED) } : {}),
        ...(process.env.MODEL_PATH ? { path: process.env.MODEL_PATH } : {}),
        // a failure that waits out the webhook check shrinks slowly: MODEL_NO_SHRINK=1 skips it
        ...(process.env.MODEL_NO_SHRINK ? { endOnFailure: true } : {}),
      },
    );
  });
});
