/**
 * DATA_DIR checked before anything opens, so a folder that cannot serve stops the process with
 * one line naming the key and what is wrong, instead of the EEXIST / EACCES of the first mkdir
 * or chmod. Nothing is created here: the stores and the secret make the folder (0700) later.
 */
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ConfigError } from './load.js';
import type { Config } from './schema.js';

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
 */
export function checkDataDir(value: string, access: 'write' | 'read' = 'write'): void {
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
