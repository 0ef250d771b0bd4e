import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from '../config/schema.js';

/**
 * The signing secret for cursors and similar tokens: APP_SECRET when set (required when several
 * API processes must agree), otherwise generated once into DATA_DIR/secret.
 */
export function loadSecret(config: Config): string {
  if (config.APP_SECRET) return config.APP_SECRET;
  const dir = resolve(config.DATA_DIR);
  const file = join(dir, 'secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
