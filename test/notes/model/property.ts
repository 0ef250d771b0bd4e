/**
 * The notes model's property (notes-model.e2e.test.ts, replay.e2e.test.ts): the commands it
 * draws and, per run, a new account whose devices each sign in with their own token.
 */
import fc from 'fast-check';
import { type ModelSettings, modelCommands, routeSeed } from '../../support/model-runs.js';
import { Route } from '../../support/route.js';
import { expectStatus, preconditions } from './checks.js';
import { NotesModel, type Real } from './model.js';
import { CreateNote, type Fields, PutNote, TagNote, TrashOrRestore } from './note-commands.js';
import { CreateTag, EditTag, RenameDevice, Retry } from './other-commands.js';
import { GetNote, History, ListNamed, ListNotes, Search, Sync } from './read-commands.js';
import type { NotesTarget } from './split.js';

export const NOTES_MODEL = { runs: 12, commands: 40 };
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

const commands: fc.Arbitrary<fc.AsyncCommand<NotesModel, Real>>[] = [
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
];

/** every run (and every shrink step) is a new account, also across the targets of a process */
let accounts = 0;

/** A new account with one token and one registered device per device name. */
async function setup(e: NotesTarget, route: Route): Promise<{ model: NotesModel; real: Real }> {
  const account = `model-${e.tag}${accounts++}`;
  const model = new NotesModel(account);
  const real: Real = { apis: [], route };
  for (const name of DEVICES) {
    const api = e.api((await e.signIn(`${account}@example.com`)).token, route);
    const registered = await api('POST', '/v1/devices', { name, platform: 'test' });
    expectStatus(registered, 201, `register ${name}`);
    const device = registered.body;
    model.devices.push({ id: device.id, name: device.name, deleted: false });
    model.clients.push({ deviceId: device.id, seen: 0 });
    real.apis.push(api);
  }
  return { model, real };
}

export function notesModelProperty(e: NotesTarget, settings: ModelSettings) {
  return fc.asyncProperty(modelCommands(commands, settings), routeSeed, async (sequence, seed) => {
    await fc.asyncModelRun(() => setup(e, new Route(seed)), sequence);
    if (settings.log) console.log(String(sequence));
  });
}
