/**
 * verify, export and import-workspace, run as operators run them (issue 15):
 *  - "`npm run cli -- verify` walks the whole log and prints either "N events, chain intact" or
 *    the first position where it breaks; test it by editing a row of the SQLite file";
 *  - "`export --workspace <slug> --out <file>` writes its events as JSON lines (with the chain
 *    hashes) ...; `import-workspace --file <file>` into an empty instance reproduces it exactly
 *    ... Refuses a file whose chain is broken."
 * (Every API answer of the two instances being equal is checked over HTTP in
 * test/feedback/history/transfer.e2e.test.ts.)
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { loadConfig } from '../../src/config/load.js';
import { withSession } from '../../src/cli/session.js';
import { submitFeedback } from '../../src/feedback/actions/index.js';
import {
  cliFails,
  cliOk,
  rawLog,
  rechained,
  removeDir,
  seedBoard,
  tempDataDir,
} from './support.js';

const storeFile = (dir: string) => join(dir, 'store.sqlite');

describe('When an operator verifies, exports and imports (CLI)', function () {
  this.timeout(180_000);
  let source: string;
  let workspaceId: string;
  before(async () => {
    source = tempDataDir();
    ({ workspaceId } = await seedBoard(source));
    await withSession(loadConfig({ DATA_DIR: source }), async ({ deps, context }) => {
      for (const body of ['Dark mode', 'Export to CSV']) {
        await submitFeedback(deps, context(), {
          workspaceId,
          productKey: 'APP',
          body,
          requester: { email: 'ann@customer.io', displayName: 'Ann' },
          allowPrivate: true,
        });
      }
    });
  });
  after(() => removeDir(source));

  describe('When the log is intact', () => {
    it('prints the number of events and "chain intact"', async () => {
      const events = (await rawLog(source)).length;
      const out = await cliOk(source, 'verify');
      expect(out.split('\n')[0]).to.equal(`${events} events, chain intact`);
      expect(out).to.match(/head: position \d+, hash [0-9a-f]{64}/);
    });
  });

  describe('When a row of the SQLite file was edited', () => {
    it('names the first position where the chain breaks', async () => {
      const copy = tempDataDir();
      try {
        await cliOk(source, 'export', '--workspace', 'acme-co', '--out', join(copy, 'x.jsonl'));
        writeFileSync(storeFile(copy), readFileSync(storeFile(source)));
        const db = new Database(storeFile(copy));
        db.prepare('UPDATE es_events SET data = replace(data, ?, ?) WHERE position = 3').run(
          'a',
          'b',
        );
        db.close();
        const line = await cliFails(copy, 'verify');
        expect(line).to.match(
          /^error: chain broken at position 3: .*; the 2 events before it are intact$/,
        );
      } finally {
        removeDir(copy);
      }
    });
  });

  describe('When a workspace is exported and imported into an empty instance', () => {
    it('writes JSON lines with the chain hashes and reproduces the events exactly', async () => {
      const target = tempDataDir();
      try {
        const file = join(target, 'acme.jsonl');
        const said = await cliOk(source, 'export', '--workspace', 'acme-co', '--out', file);
        const lines = readFileSync(file, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l));
        expect(lines[0]).to.include({ format: 'feedback-workspace-export', version: 2 });
        expect(lines.at(-1)).to.include({ end: true, events: lines.length - 2 });
        for (const line of lines.slice(1, -1)) {
          expect(line.hash).to.match(/^[0-9a-f]{64}$/);
          expect(line.logHash).to.match(/^[0-9a-f]{64}$/);
        }
        expect(said).to.equal(`exported ${lines.length - 2} events of acme-co to ${file}\n`);
        // the user without a workspace is not part of it
        const streams = new Set(lines.slice(1, -1).map((l) => l.streamId as string));
        expect([...streams].filter((s) => s.startsWith('user-'))).to.have.length(1);

        expect(await cliOk(target, 'import-workspace', '--file', file)).to.equal(
          `imported ${lines.length - 2} events of acme-co\n`,
        );
        const exported = new Set(lines.slice(1, -1).map((l) => l.position as string));
        const original = (await rawLog(source)).filter((e) => exported.has(e.position));
        expect(await rawLog(target)).to.deep.equal(original);
        expect((await cliOk(target, 'verify')).split('\n')[0]).to.equal(
          `${original.length} events, chain intact`,
        );
        // only into an empty instance
        const again = await cliFails(target, 'import-workspace', '--file', file);
        expect(again).to.match(/not empty/);
      } finally {
        removeDir(target);
      }
    });

    it('refuses a file whose chain is broken, cut short or not an export, and writes nothing', async () => {
      const target = tempDataDir();
      try {
        const file = join(target, 'acme.jsonl');
        await cliOk(source, 'export', '--workspace', 'acme-co', '--out', file);
        const lines = readFileSync(file, 'utf8').trim().split('\n');
        const edited = [...lines];
        const changed = JSON.parse(edited[4]!);
        changed.data = changed.data.replace('{', '{"forged":true,');
        edited[4] = JSON.stringify(changed);
        const tampered = join(target, 'tampered.jsonl');
        writeFileSync(tampered, `${edited.join('\n')}\n`);
        expect(await cliFails(target, 'import-workspace', '--file', tampered)).to.match(
          /line 5: the chain is broken at position \d+/,
        );
        const dropped = join(target, 'dropped.jsonl');
        writeFileSync(dropped, `${[...lines.slice(0, 3), ...lines.slice(4)].join('\n')}\n`);
        expect(await cliFails(target, 'import-workspace', '--file', dropped)).to.match(
          /chain is broken/,
        );
        const short = join(target, 'short.jsonl');
        writeFileSync(short, `${lines.slice(0, -1).join('\n')}\n`);
        expect(await cliFails(target, 'import-workspace', '--file', short)).to.match(/cut short/);
        const other = join(target, 'other.jsonl');
        writeFileSync(other, '{"hello":1}\n');
        expect(await cliFails(target, 'import-workspace', '--file', other)).to.match(
          /not the header/,
        );
        expect(await rawLog(target)).to.deep.equal([]);
      } finally {
        removeDir(target);
      }
    });

    it('still imports a version-1 export (made before webhooks and integrations moved)', async () => {
      // format.ts: "this instance imports either"; a version it does not know is refused at the
      // header, before anything is written
      const target = tempDataDir();
      try {
        const file = join(target, 'acme.jsonl');
        await cliOk(source, 'export', '--workspace', 'acme-co', '--out', file);
        const lines = readFileSync(file, 'utf8').trim().split('\n');
        const events = lines.slice(1, -1).map((l) => JSON.parse(l));
        const header = (version: number) => JSON.stringify({ ...JSON.parse(lines[0]!), version });
        const future = join(target, 'v3.jsonl');
        writeFileSync(future, rechained(header(3), events));
        expect(await cliFails(target, 'import-workspace', '--file', future)).to.match(
          /line 1: not the header of a workspace export \(format, version\)/,
        );
        const old = join(target, 'v1.jsonl');
        writeFileSync(old, rechained(header(1), events));
        expect(await cliOk(target, 'import-workspace', '--file', old)).to.equal(
          `imported ${events.length} events of acme-co\n`,
        );
      } finally {
        removeDir(target);
      }
    });

    it('refuses a file whose chain holds but whose events are unusable, and writes nothing', async () => {
      // README: "a broken, cut or edited file is refused before anything is written" — also one
      // whose hashes were computed again over the edit (anyone can compute them)
      const target = tempDataDir();
      try {
        const file = join(target, 'acme.jsonl');
        await cliOk(source, 'export', '--workspace', 'acme-co', '--out', file);
        const lines = readFileSync(file, 'utf8').trim().split('\n');
        const events = lines.slice(1, -1).map((l) => JSON.parse(l));
        const captured = events.findIndex((e) => e.type === 'ItemCaptured');
        const cases: [string, (edited: typeof events) => void, RegExp][] = [
          [
            'empty data',
            (e) => (e[captured].data = '{}'),
            /\(ItemCaptured\) has data of another shape/,
          ],
          [
            'a revision gap',
            (e) => (e.at(-1).revision += 5),
            /has revision \d+ of .*; the stream's next is/,
          ],
          ['a repeated id', (e) => (e.at(-1).id = e[0].id), /repeats the id/],
          ['an unknown type', (e) => (e[captured].type = 'ItemBurned'), /never holds: ItemBurned/],
        ];
        for (const [what, edit, refusal] of cases) {
          const edited = structuredClone(events);
          edit(edited);
          const forged = join(target, `forged-${what.replaceAll(' ', '-')}.jsonl`);
          writeFileSync(forged, rechained(lines[0]!, edited));
          expect(await cliFails(target, 'import-workspace', '--file', forged), what).to.match(
            refusal,
          );
        }
        expect(await rawLog(target)).to.deep.equal([]);
        // and the untouched file, rechained the same way, still imports
        const same = join(target, 'same.jsonl');
        writeFileSync(same, rechained(lines[0]!, events));
        await cliOk(target, 'import-workspace', '--file', same);
      } finally {
        removeDir(target);
      }
    });

    it('refuses an unknown workspace and missing flags with one line', async () => {
      // --out names a new file in a folder of the test's own: a fixed path such as /tmp/x made
      // the test depend on the machine (export refuses a file already there before it looks
      // for the workspace)
      const root = tempDataDir();
      const out = join(root, 'nowhere.jsonl');
      try {
        expect(
          await cliFails(source, 'export', '--workspace', 'nowhere-co', '--out', out),
        ).to.match(/no workspace with slug nowhere-co/);
        expect(existsSync(out)).to.equal(false);
      } finally {
        removeDir(root);
      }
      expect(await cliFails(source, 'export', '--workspace', 'acme-co')).to.match(/out/);
      expect(await cliFails(source, 'import-workspace', '--file', '/nonexistent')).to.match(
        /no file/,
      );
    });

    it('refuses to export from a data folder with no event log, and creates none there', async () => {
      // an operator's mistyped DATA_DIR: "no workspace" would mislead, and a verb that only
      // reads must not leave a new, empty store behind
      const root = tempDataDir();
      const empty = join(root, 'typo');
      try {
        expect(
          await cliFails(empty, 'export', '--workspace', 'acme-co', '--out', join(root, 'x')),
        ).to.match(/^error: no event log at .*store\.sqlite/);
        expect(existsSync(join(empty, 'store.sqlite'))).to.equal(false);
      } finally {
        removeDir(root);
      }
    });
  });
});
