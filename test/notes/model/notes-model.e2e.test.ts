/**
 * Model-based test of the notes API over real HTTP: random sequences of writes and reads by the
 * devices of one account, each answer compared with an in-memory model of the spec and README
 * (model.ts). A failure prints the shrunk sequence and fast-check's seed and path.
 *
 * MODEL_RUNS (default 12) and MODEL_COMMANDS (most commands per run, default 40) run it longer;
 * MODEL_SEED and MODEL_PATH replay a failure; MODEL_LOG=1 prints every sequence run.
 *
 * MODEL_TARGET=split runs it against the production shape instead (README "Running on KurrentDB +
 * MongoDB"; needs EVENTSTORE_URL and MONGODB_URL, ../shared/engines/up.sh): two `start:api`
 * processes and a `start:projector`, each request sent to either API process at random, so a
 * write answered by one is read back through the other (split.ts). The model uses no in-process
 * hook: every command runs there, and only search may take a few tries (5 s at most) to find a
 * change by its words, as README says an API process's lexical index does there.
 */
import fc from 'fast-check';
import { expectStatus, preconditions } from './checks.js';
import { NotesModel, type Real } from './model.js';
import { CreateNote, type Fields, PutNote, TagNote, TrashOrRestore } from './note-commands.js';
import { CreateTag, EditTag, RenameDevice, Retry } from './other-commands.js';
import { GetNote, History, ListNamed, ListNotes, Search, Sync } from './read-commands.js';
import { type NotesTarget, startNotesTarget } from './split.js';

const RUNS = Number(process.env.MODEL_RUNS ?? 12);
const COMMANDS = Number(process.env.MODEL_COMMANDS ?? 40);
const DEVICES = ['Pixel', 'Laptop', 'Tablet'];

const by = fc.nat(5);
const at = fc.nat(50);
const pre = fc.constantFrom(...preconditions);
const tagName = fc.constantFrom(
  'work',
  ' Work ',
  'home',
  'ideas',
  'Ideas',
  'later',
  'été',
  'e\u0301te\u0301',
);
const deviceName = fc.constantFrom('Pixel', 'laptop', 'Tablet', 'Desk', ' desk ');
const fields: fc.Arbitrary<Fields> = fc.record(
  {
    title: fc.constantFrom('', 'Groceries', 'tab\there', 'line\nbreak', 'Réunion', '  spaced  '),
    suffix: fc.constantFrom('', 'milk and eggs', 'call the plumber', 'bell \u0007 rings'),
    tags: fc.array(tagName, { maxLength: 3 }),
    device: fc.option(deviceName, { nil: null }),
    by,
    keyed: fc.boolean(),
  },
  { requiredKeys: ['suffix', 'by', 'keyed'] },
);

const commands = fc.commands(
  [
    fields.map((f) => new CreateNote(f)),
    fields.map((f) => new CreateNote(f)),
    fc.tuple(at, fields, pre, fc.boolean()).map(([i, f, p, same]) => new PutNote(i, f, p, same)),
    fc.tuple(at, fields, pre, fc.boolean()).map(([i, f, p, same]) => new PutNote(i, f, p, same)),
    fc.tuple(at, at, fc.boolean(), pre, by, fc.boolean()).map((a) => new TagNote(...a)),
    fc.tuple(at, fc.boolean(), pre, by, fc.boolean()).map((a) => new TrashOrRestore(...a)),
    fc.tuple(at, fc.boolean(), by).map(([i, same, b]) => new Retry(i, same, b)),
    fc.tuple(at, fc.constant(true), by).map(([i, same, b]) => new Retry(i, same, b)),
    tagName.map((name) => new CreateTag(name)),
    fc.tuple(at, fc.option(tagName, { nil: null })).map(([i, name]) => new EditTag(i, name)),
    fc.tuple(at, deviceName).map(([i, name]) => new RenameDevice(i, name)),
    fc.tuple(fc.integer({ min: 1, max: 4 }), fc.boolean(), by).map((a) => new ListNotes(...a)),
    fc.tuple(at, by).map(([i, b]) => new GetNote(i, b)),
    fc.tuple(at, fc.integer({ min: 1, max: 3 })).map(([i, l]) => new History(i, l)),
    fc.tuple(by, fc.integer({ min: 1, max: 4 })).map(([c, l]) => new Sync(c, l)),
    fc.tuple(by, fc.integer({ min: 1, max: 4 })).map(([c, l]) => new Sync(c, l)),
    at.map((i) => new Search(i)),
    fc.constant(new ListNamed()),
  ],
  { maxCommands: COMMANDS, size: 'max' },
);

describe('When the devices of one account use the notes API in random order', function () {
  this.timeout(Math.max(60_000, RUNS * COMMANDS * 500));
  let e: NotesTarget;
  let accounts = 0;

  before(async () => {
    // every run (and every shrink step) is a new account with its own sign-ins
    e = await startNotesTarget({ NOTES_REGISTRATIONS_PER_IP: '100000' });
  });
  after(async () => e?.stop());

  /** A new account with one token and one registered device per device name. */
  async function setup(): Promise<{ model: NotesModel; real: Real }> {
    const account = `model-${e.tag}${accounts++}`;
    const model = new NotesModel(account);
    const real: Real = { apis: [] };
    for (const name of DEVICES) {
      const api = e.api((await e.signIn(`${account}@example.com`)).token);
      const registered = await api('POST', '/v1/devices', { name, platform: 'test' });
      expectStatus(registered, 201, `register ${name}`);
      const device = registered.body;
      model.devices.push({ id: device.id, name: device.name, deleted: false });
      model.clients.push({ deviceId: device.id, seen: 0 });
      real.apis.push(api);
    }
    return { model, real };
  }

  it('every answer agrees with the model of the spec and README', async () => {
    const replay = process.env.MODEL_SEED
      ? { seed: Number(process.env.MODEL_SEED), path: process.env.MODEL_PATH }
      : {};
    await fc.assert(
      fc.asyncProperty(commands, async (cmds) => {
        await fc.asyncModelRun(setup, cmds);
        if (process.env.MODEL_LOG) console.log(String(cmds));
      }),
      { numRuns: RUNS, endOnFailure: false, ...replay },
    );
  });
});
