/**
 * `verify` and `export` over a read-only copy of a DATA_DIR (failure audit F9: verify refused a
 * backup mounted read-only). README, "Admin CLI": "`verify` and `export` only read: on a
 * `DATA_DIR` this user cannot write … they answer what they answer on a writable copy and leave
 * it exactly as it was — no file made beside the data file, no mode changed".
 *
 * The copy is made as an operator makes one (`cp -a`, `chmod -R a-w`), and the CLI runs as the
 * user who owns it; a test run as root runs it as `nobody`, since modes do not stop root.
 */
import { createHash } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { openEmbeddedEventStore } from '../../src/eventstore/embedded/index.js';
import { embeddedFile } from '../../src/platform/stores.js';
import { loadConfig } from '../../src/config/load.js';
import { startProcess } from '../support/processes.js';
import { cliAs, cliOk, removeDir, seedBoard, tempDataDir } from './support.js';

const asRoot = process.getuid?.() === 0;
const operator = asRoot ? { uid: 65534, gid: 65534 } : undefined;

/** `cp -a` then `chmod -R a-w`, owned by the operator. */
function readOnlyCopy(from: string, to: string): string {
  cpSync(from, to, { recursive: true, preserveTimestamps: true });
  for (const path of [to, ...readdirSync(to).map((name) => join(to, name))]) {
    if (operator) chownSync(path, operator.uid, operator.gid);
    chmodSync(path, statSync(path).mode & ~0o222);
  }
  return to;
}

/** Every name in the folder with its mode, size, modification time and bytes. */
function fingerprint(dir: string): string[] {
  const entry = (path: string, name: string) => {
    const s = statSync(path);
    const bytes = s.isFile() ? createHash('sha256').update(readFileSync(path)).digest('hex') : '';
    return `${name} ${s.mode.toString(8)} ${s.uid} ${s.size} ${s.mtimeMs} ${bytes}`;
  };
  return [entry(dir, '.'), ...readdirSync(dir).map((name) => entry(join(dir, name), name))];
}

const leftovers = () => readdirSync(tmpdir()).filter((name) => name.startsWith('cli-read-'));

async function asOperator(dir: string, ...args: string[]): Promise<string> {
  const run = await cliAs(operator, dir, ...args);
  expect(run.stderr, `stderr of ${args[0]}`).to.equal('');
  expect(run.code, `exit code of ${args[0]}`).to.equal(0);
  return run.stdout;
}

describe('When DATA_DIR is a read-only copy (CLI)', function () {
  this.timeout(180_000);
  let root: string;
  let source: string;
  before(async () => {
    root = tempDataDir();
    chmodSync(root, 0o755); // the operator reaches the copies in it
    source = join(root, 'data');
    await seedBoard(source);
  });
  after(() => {
    for (const name of readdirSync(root)) {
      const path = join(root, name);
      if (statSync(path).isDirectory()) chmodSync(path, 0o700);
    }
    removeDir(root);
  });

  it('verify of a stopped server’s copy answers as on a writable copy and changes nothing', async () => {
    const copy = readOnlyCopy(source, join(root, 'stopped'));
    const before = fingerprint(copy);
    const stale = leftovers();
    const answer = await asOperator(copy, 'verify');
    expect(answer).to.match(/^5 events, chain intact\nhead: position 5, hash [0-9a-f]{64}\n$/);
    expect(answer).to.equal(await cliOk(source, 'verify'));
    expect(fingerprint(copy)).to.deep.equal(before);
    expect(leftovers()).to.deep.equal(stale);
  });

  it('verify by root of a copy marked read-only leaves it as it was too', async function () {
    if (!asRoot) this.skip(); // only root's writes are not stopped by the modes
    const copy = join(root, 'root-copy');
    cpSync(source, copy, { recursive: true, preserveTimestamps: true });
    for (const path of [copy, join(copy, 'store.sqlite')])
      chmodSync(path, 0o555 & statSync(path).mode);
    const before = fingerprint(copy);
    expect(await cliOk(copy, 'verify')).to.equal(await cliOk(source, 'verify'));
    expect(fingerprint(copy)).to.deep.equal(before);
  });

  it('verify of a copy taken while the log was written (its -wal, an unchained last batch) answers as on a writable copy', async () => {
    const live = join(root, 'live');
    cpSync(source, live, { recursive: true });
    const writable = join(root, 'hot-writable');
    const store = await openEmbeddedEventStore({
      path: embeddedFile(loadConfig({ DATA_DIR: live })),
    });
    try {
      for (let i = 0; i < 20; i++) {
        const metadata = { actor: null, occurredAt: 0, correlationId: `c${i}`, causationId: null };
        await store.appendToStream(`note-${i}`, [{ type: 'Noted', data: { i }, metadata }]);
      }
      // as a backup tool copies a running server's folder: the file, its -wal and -shm
      cpSync(live, writable, { recursive: true });
    } finally {
      await store.close();
    }
    expect(readdirSync(writable)).to.include('store.sqlite-wal');
    const db = new Database(join(writable, 'store.sqlite'), { readonly: true });
    const chained = db.prepare('SELECT max(last) FROM es_chain').pluck().get();
    db.close();
    expect(chained, 'the copy’s last batch is not chained yet').to.be.below(25);
    const copy = readOnlyCopy(writable, join(root, 'hot'));
    const before = fingerprint(copy);
    const answer = await asOperator(copy, 'verify');
    expect(answer).to.match(/^25 events, chain intact\n/);
    expect(answer).to.equal(await cliOk(writable, 'verify'));
    expect(fingerprint(copy)).to.deep.equal(before);
  });

  it('export writes the events a writable copy exports, and the service serves them once imported', async () => {
    const copy = readOnlyCopy(source, join(root, 'export'));
    const before = fingerprint(copy);
    const out = join(root, 'out');
    mkdirSync(out);
    if (operator) chownSync(out, operator.uid, operator.gid);
    chmodSync(out, 0o700);
    const file = join(out, 'acme.jsonl');
    expect(await asOperator(copy, 'export', '--workspace', 'acme-co', '--out', file)).to.equal(
      `exported 4 events of acme-co to ${file}\n`,
    );
    expect(fingerprint(copy)).to.deep.equal(before);
    const reference = join(root, 'reference.jsonl');
    await cliOk(source, 'export', '--workspace', 'acme-co', '--out', reference);
    // the file's own chain starts at its header, which carries the moment of the export
    const events = (path: string) =>
      readFileSync(path, 'utf8')
        .trim()
        .split('\n')
        .slice(1, -1)
        .map((line) => ({ ...JSON.parse(line), hash: undefined }));
    expect(events(file)).to.have.length(4);
    expect(events(file)).to.deep.equal(events(reference));

    const target = join(root, 'imported');
    await cliOk(target, 'import-workspace', '--file', file);
    const token = (
      await cliOk(target, 'create-token', '--email', 'max@acme.io', '--name', 'laptop')
    ).split('\n')[0]!;
    const { child, url } = await startProcess(target);
    try {
      const res = await fetch(`${url}/v1/workspaces/acme-co/products`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status).to.equal(200);
      expect(JSON.stringify(await res.json())).to.contain('"APP"');
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });
});
