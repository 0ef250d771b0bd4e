/**
 * Runs the admin CLI as operators do — a child process over a DATA_DIR — and opens the same
 * stores afterwards to check the read models it left behind.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { withSession } from '../../src/cli/session.js';
import { loadConfig } from '../../src/config/load.js';
import { createProduct, createUser, createWorkspace } from '../../src/feedback/actions/index.js';
import { type ExportEvent, headerHash, lineHash } from '../../src/feedback/transfer/format.js';
import { openStores, type Stores } from '../../src/platform/stores.js';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'cli-test-'));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export function cli(dataDir: string, ...args: string[]): Promise<CliRun> {
  return cliAs(undefined, dataDir, ...args);
}

/** The CLI run by another user of this machine (a test run as root runs it as `nobody`). */
export function cliAs(
  user: { uid: number; gid: number } | undefined,
  dataDir: string,
  ...args: string[]
): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', ...args],
      {
        env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'info' },
        timeout: 60_000,
        ...user,
      },
      (error, stdout, stderr) => {
        const code = error ? ((error as { code?: number }).code ?? null) : 0;
        resolve({ code: typeof code === 'number' ? code : null, stdout, stderr });
      },
    );
  });
}

/** A successful run; fails the test with the CLI's own error line otherwise. */
export async function cliOk(dataDir: string, ...args: string[]): Promise<string> {
  const run = await cli(dataDir, ...args);
  expect(run.stderr, `stderr of ${args[0]}`).to.equal('');
  expect(run.code, `exit code of ${args[0]}`).to.equal(0);
  return run.stdout;
}

/** A failed run: exit code 1, exactly one line on stderr, no stack trace; returns that line. */
export async function cliFails(dataDir: string, ...args: string[]): Promise<string> {
  const run = await cli(dataDir, ...args);
  expect(run.code, `exit code of ${args.join(' ')}`).to.equal(1);
  const lines = run.stderr.split('\n').filter((line) => line.trim() !== '');
  expect(lines, `stderr of ${args.join(' ')}`).to.have.length(1);
  expect(run.stderr).not.to.match(/\n\s+at /);
  expect(lines[0]).to.match(/^error: /);
  return lines[0]!;
}

/** Open the stores the CLI wrote to (the CLI must have exited). */
export async function withStores<T>(dataDir: string, run: (stores: Stores) => Promise<T>) {
  const stores = await openStores(loadConfig({ DATA_DIR: dataDir }));
  try {
    return await run(stores);
  } finally {
    await stores.close();
  }
}

/** Overwrites the stored documents of `collection` (only the one with `id`, if given) with `value`. */
export function spoil(dir: string, collection: string, value: string | Buffer, id?: string): void {
  const db = new Database(join(dir, 'store.sqlite'));
  try {
    const where = id === undefined ? '' : ' AND id = ?';
    db.prepare(`UPDATE rm_docs SET json = ? WHERE collection = ?${where}`).run(
      value,
      collection,
      ...(id === undefined ? [] : [id]),
    );
  } finally {
    db.close();
  }
}

/** In-process, through the actions: maker max@acme.io, admin of `acme-co` with product APP. */
export async function seedBoard(dataDir: string): Promise<{ userId: string; workspaceId: string }> {
  return withSession(loadConfig({ DATA_DIR: dataDir }), async ({ deps, context, caughtUp }) => {
    const { userId } = await createUser(deps, context(), {
      email: 'max@acme.io',
      displayName: 'Max',
    });
    await createUser(deps, context(), { email: 'solo@acme.io', displayName: 'No workspace' });
    await caughtUp();
    const { workspaceId } = await createWorkspace(deps, context(), {
      slug: 'acme-co',
      name: 'Acme',
      ownerId: userId,
    });
    await createProduct(deps, context(), {
      workspaceId,
      key: 'APP',
      name: 'App',
      visibility: 'public',
    });
    return { userId, workspaceId };
  });
}

/** Every event of the log as stored (positions as text, for deep equality). */
export async function rawLog(dir: string) {
  return withStores(dir, async ({ rawEventStore }) =>
    (await rawEventStore.readAll()).map((e) => ({ ...e, position: e.position.toString() })),
  );
}

/** An export file whose hash chain is computed again over `events`, as a forger would. */
export function rechained(header: string, events: (ExportEvent & Record<string, unknown>)[]) {
  let previous = headerHash(header);
  const body = events.map((event) => {
    const { hash: _hash, logHash, ...bytes } = event;
    previous = lineHash(previous, bytes);
    return JSON.stringify({ ...bytes, logHash, hash: previous });
  });
  const end = JSON.stringify({ end: true, events: events.length, hash: previous });
  return `${[header, ...body, end].join('\n')}\n`;
}
