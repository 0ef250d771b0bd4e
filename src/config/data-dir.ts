/**
 * DATA_DIR checked before anything opens, so a folder that cannot serve stops the process with
 * one line naming the key and what is wrong, instead of the EEXIST / EACCES of the first mkdir
 * or chmod. Nothing is created here: the stores and the secret make the folder (0700) later.
 */
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ConfigError } from './load.js';
import type { Config } from './schema.js';

/** The embedded stores' file in DATA_DIR (the event log and the read models). */
export const STORE_FILE = 'store.sqlite';

/**
 * A folder or file its owner marked read-only: no write bit for the owner (`chmod a-w`, a backup
 * kept as it is). Root writes whatever the modes say, so this is asked, not tried.
 */
export function markedReadOnly(path: string): boolean {
  return (statSync(path).mode & 0o200) === 0;
}

/**
 * Whether this configuration keeps anything in DATA_DIR: an embedded store, the generated
 * secret (no APP_SECRET) or the dev mailbox (no SMTP_URL). With none of these it is never read.
 */
export function usesDataDir(config: Config): boolean {
  return !config.EVENTSTORE_URL || !config.MONGODB_URL || !config.APP_SECRET || !config.SMTP_URL;
}

/**
 * `read`: the caller only reads what DATA_DIR holds (`verify`, `export`), so a folder this user
 * cannot write — a backup mounted read-only, another user's copy — is fine (src/cli/session.ts).
 * `store`: the caller opens the embedded store file in it.
 */
export function checkDataDir(
  value: string,
  access: 'write' | 'read' = 'write',
  store = true,
): void {
  const dir = resolve(value);
  // the folder itself, or the nearest existing folder above it, where it will be made
  let existing = dir;
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  const bad = (problem: string) => new ConfigError(`DATA_DIR=${value}: ${problem}`);
  if (!statSync(existing).isDirectory()) {
    throw bad(
      existing === dir
        ? 'is a file, not a folder'
        : `${existing} is a file, so the folder cannot be made in it`,
    );
  }
  if (access === 'read') return;
  if (!writable(existing)) {
    throw bad(
      existing === dir
        ? 'this user cannot write to the folder'
        : `this user cannot create the folder in ${existing}`,
    );
  }
  // a start makes the folder 0700 and the file 0600, and root may write either whatever its
  // mode: a copy its owner marked read-only would be changed without a word
  const file = join(dir, STORE_FILE);
  const candidates = existing === dir ? [dir, ...(store && existsSync(file) ? [file] : [])] : [];
  const marked = candidates.find(markedReadOnly);
  if (marked) {
    const what = marked === dir ? 'the folder' : STORE_FILE;
    const mode = (statSync(marked).mode & 0o777).toString(8).padStart(4, '0');
    throw bad(
      `${what} is marked read-only (mode ${mode}: no write bit for its owner), so it is not served or written; make it writable (chmod u+w) to use it, or read it with \`npm run cli -- verify\` or \`export\`, which leave it as it is`,
    );
  }
  const uid = process.getuid?.();
  const owner = statSync(existing).uid;
  if (existing === dir && uid !== undefined && uid !== 0 && owner !== uid) {
    // the folder is made private (0700) at every start, which only its owner may do
    throw bad(`the folder belongs to another user (uid ${owner}); it must be this user's own`);
  }
}

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
