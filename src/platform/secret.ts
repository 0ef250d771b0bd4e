import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from '../config/schema.js';
import { ensurePrivateDir, PRIVATE_FILE_MODE, restrictFiles } from './private-files.js';

/**
 * The signing secret for cursors and similar tokens: APP_SECRET when set (required when several
 * API processes must agree), otherwise generated once into DATA_DIR/secret.
 */
export function loadSecret(config: Config): string {
  if (config.APP_SECRET) return config.APP_SECRET;
  const dir = resolve(config.DATA_DIR);
  const file = join(dir, 'secret');
  ensurePrivateDir(dir);
  if (existsSync(file)) {
    restrictFiles(file);
    return readFileSync(file, 'utf8').trim();
  }
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: PRIVATE_FILE_MODE });
  restrictFiles(file);
  return secret;
}
