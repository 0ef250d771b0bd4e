import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  openSync,
  readFileSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { ensurePrivateDir, PRIVATE_FILE_MODE, restrictFiles } from './private-files.js';

/** a generated secret is 43 characters; anything under this is a damaged file */
const SHORTEST = 16;

/**
 * The signing secret for cursors and similar tokens: APP_SECRET when set (required when several
 * API processes must agree), otherwise generated once into DATA_DIR/secret.
 *
 * The file is made whole or not at all (failure audit: after a crash a file written without
 * fsync came back empty, and the start then failed with "cursor secret must be at least 16
 * bytes"): the secret is written and synced under a temporary name, then linked into place, which
 * fails if another process made the file first — that process's secret is used. An empty or
 * damaged file stops the start naming the file, since a new secret would orphan every signed
 * cursor and sealed webhook signing secret.
 */
export function loadSecret(config: Config): string {
  if (config.APP_SECRET) return config.APP_SECRET;
  const dir = resolve(config.DATA_DIR);
  const file = join(dir, 'secret');
  ensurePrivateDir(dir);
  if (!existsSync(file)) create(dir, file);
  restrictFiles(file);
  const secret = readFileSync(file, 'utf8').trim();
  if (secret.length < SHORTEST) {
    throw new ConfigError(
      `DATA_DIR=${dir}: the file "secret" is empty or damaged (${secret.length} characters); ` +
        'restore it from a backup, or set APP_SECRET to the secret it held. Deleting it makes a ' +
        'new one, which invalidates issued cursors and the sealed webhook signing secrets',
    );
  }
  return secret;
}

function create(dir: string, file: string): void {
  const temporary = join(dir, `secret.${process.pid}.tmp`);
  const fd = openSync(temporary, 'w', PRIVATE_FILE_MODE);
  try {
    writeSync(fd, randomBytes(32).toString('base64url'));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(temporary);
  }
  const directory = openSync(dir, 'r');
  try {
    fsyncSync(directory);
  } finally {
    closeSync(directory);
  }
}
