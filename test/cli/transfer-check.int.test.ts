/**
 * import-workspace checks the whole file before its first write, and export never replaces a
 * file. README, "Admin CLI": "`import-workspace` checks the whole file first (a broken, cut or
 * edited file is refused before anything is written — also one whose hashes were computed again
 * over an edit: each event must continue its stream's revisions, use a fresh id, and be a type
 * its stream holds with data of that type's shape)"; "`export --out` writes only a new file in a
 * folder that exists (it never replaces a file). Errors are one line on stderr and exit code 1."
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { writeFailed } from '../../src/cli/paths.js';
import { withSession } from '../../src/cli/session.js';
import { loadConfig } from '../../src/config/load.js';
import { addPlusOne, registerPerson, submitFeedback } from '../../src/feedback/actions/index.js';
import { exportWorkspace } from '../../src/feedback/transfer/export.js';
import type { ExportEvent } from '../../src/feedback/transfer/format.js';
import {
  cliFails,
  cliOk,
  rawLog,
  rechained,
  removeDir,
  seedBoard,
  tempDataDir,
  withStores,
} from './support.js';

type Line = ExportEvent & Record<string, unknown>;

/** `count` status changes of the item captured in `events`, appended after them. */
function withStatusChanges(events: Line[], count: number): Line[] {
  const captured = events.find((e) => e.type === 'ItemCaptured')!;
  const own = events.filter((e) => e.streamId === captured.streamId);
  let revision = own.at(-1)!.revision;
  let position = BigInt(events.at(-1)!.position);
  const changes = Array.from({ length: count }, (_, i) => ({
    ...captured,
    position: String(++position),
    revision: ++revision,
    id: randomUUID(),
    type: 'ItemStatusChanged',
    data: JSON.stringify(i % 2 ? { from: 'planned', to: 'new' } : { from: 'new', to: 'planned' }),
  }));
  return [...events, ...changes];
}

describe('When an export file is forged with its hashes computed again (CLI)', function () {
  this.timeout(180_000);
  let source: string;
  let header: string;
  let events: Line[];
  before(async () => {
    source = tempDataDir();
    const { workspaceId } = await seedBoard(source);
    await withSession(loadConfig({ DATA_DIR: source }), async ({ deps, context }) => {
      const requester = { email: 'ann@customer.io', displayName: 'Ann' };
      const { itemKey } = await submitFeedback(deps, context(), {
        ...{ workspaceId, productKey: 'APP', body: 'Dark mode', requester },
        allowPrivate: true,
      });
      const bob = { email: 'bob@customer.io', displayName: 'Bob' };
      const { personId } = await registerPerson(deps, context(), { workspaceId, requester: bob });
      await addPlusOne(deps, context(), { workspaceId, itemKey, personId });
    });
    const file = join(source, 'acme.jsonl');
    await cliOk(source, 'export', '--workspace', 'acme-co', '--out', file);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    header = lines[0]!;
    events = lines.slice(1, -1).map((l) => JSON.parse(l));
  });
  after(() => removeDir(source));

  it('refuses a revision gap at event 1,500, writes nothing, and then takes the good file', async () => {
    // the audit: 1,000 events were written before the gap was met, and a run with the good file
    // was then refused as "not empty"
    const target = tempDataDir();
    try {
      const good = withStatusChanges(events, 1_500 - events.length + 10);
      const forged = structuredClone(good);
      forged[1_499]!.revision += 1;
      writeFileSync(join(target, 'gap.jsonl'), rechained(header, forged));
      writeFileSync(join(target, 'good.jsonl'), rechained(header, good));
      expect(
        await cliFails(target, 'import-workspace', '--file', join(target, 'gap.jsonl')),
      ).to.match(/line 1501: the event at position \d+ has revision \d+ of item-/);
      expect(await rawLog(target)).to.deep.equal([]);
      expect(
        await cliOk(target, 'import-workspace', '--file', join(target, 'good.jsonl')),
      ).to.equal(`imported ${good.length.toLocaleString('en-US')} events of acme-co\n`);
      expect(await rawLog(target)).to.have.length(good.length);
    } finally {
      removeDir(target);
    }
  });

  it('refuses a schema version its readers cannot use', async () => {
    const target = tempDataDir();
    try {
      const plusOne = events.findIndex((e) => e.type === 'PlusOneAdded');
      const version = (v: unknown) => (e: Line[]) => {
        e[plusOne]!.metadata = JSON.stringify({
          ...JSON.parse(e[plusOne]!.metadata),
          schemaVersion: v,
        });
      };
      const cases: [string, (e: Line[]) => void, RegExp][] = [
        ['version-0', version(0), /schemaVersion that is not a version number/],
        ['version-text', version('2'), /schemaVersion that is not a version number/],
      ];
      for (const [what, edit, refusal] of cases) {
        const edited = structuredClone(events);
        edit(edited);
        const file = join(target, `${what}.jsonl`);
        writeFileSync(file, rechained(header, edited));
        expect(await cliFails(target, 'import-workspace', '--file', file), what).to.match(refusal);
      }
      expect(await rawLog(target)).to.deep.equal([]);
    } finally {
      removeDir(target);
    }
  });

  it('leaves a file made after export checked its name as it was, with nothing beside it', async () => {
    // the name was free when `export` looked; another process wrote it while the log was read
    const folder = tempDataDir();
    const file = join(folder, 'taken.jsonl');
    writeFileSync(file, 'someone else’s\n');
    try {
      const refused = await withStores(source, async ({ rawEventStore }) =>
        exportWorkspace(rawEventStore, { id: 'w', slug: 'acme-co', name: 'Acme' }, file).catch(
          (error: Error) => error,
        ),
      );
      expect((writeFailed(refused, 'taken.jsonl') as Error).message).to.equal(
        'taken.jsonl already exists; give a new file name (nothing is overwritten)',
      );
      expect(readFileSync(file, 'utf8')).to.equal('someone else’s\n');
      expect(readdirSync(folder)).to.deep.equal(['taken.jsonl']);
    } finally {
      removeDir(folder);
    }
  });
});

describe('When the log holds an event the read models cannot apply', function () {
  this.timeout(120_000);
  it('a command and rebuild fail with one line saying so, never a stack', async () => {
    // the audit: an import of ItemCaptured with data {} stopped every projector, and the CLI
    // printed the TypeError's stack
    const dir = tempDataDir();
    try {
      const { workspaceId } = await seedBoard(dir);
      await withStores(dir, ({ rawEventStore }) =>
        rawEventStore.appendToStream(
          `item-${workspaceId}.APP-9`,
          [
            {
              type: 'ItemCaptured',
              data: {},
              metadata: {
                actor: null,
                occurredAt: Date.now(),
                correlationId: randomUUID(),
                causationId: null,
              },
            },
          ],
          { expectedRevision: 'no_stream' },
        ),
      );
      const stopped =
        /^error: the read models stopped at an event of the log they cannot apply \(.+\)/;
      expect(await cliFails(dir, 'create-user', '--email', 'zoe@acme.io')).to.match(stopped);
      expect(await cliFails(dir, 'rebuild', '--projector', 'items')).to.match(stopped);
    } finally {
      removeDir(dir);
    }
  });
});
