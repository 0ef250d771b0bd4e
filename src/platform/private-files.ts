/**
 * The data folder holds the signing keys, cookie keys, the app secret and (in development) the
 * sign-in codes: it is made 0700 and its files 0600 whatever the umask (issue 10 item 5), also
 * when an older version left them readable to every local user.
 */
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Made level by level, not with `{ recursive: true }`: Node's recursive mkdir spins forever where
 * the kernel answers ENOENT under a folder that exists (DATA_DIR=/proc/data as root), and the
 * start hung without a word; now the mkdir error reaches the operator (start-checks.ts).
 */
export function ensurePrivateDir(dir: string): void {
  const missing: string[] = [];
  for (let at = resolve(dir); !existsSync(at) && dirname(at) !== at; at = dirname(at)) {
    missing.unshift(at);
  }
  for (const level of missing) {
    try {
      mkdirSync(level, { mode: PRIVATE_DIR_MODE });
    } catch (error) {
      // another process of this deployment made it first
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  chmodSync(dir, PRIVATE_DIR_MODE);
}

/** chmod 0600 each file that exists (SQLite's -wal and -shm come and go) */
export function restrictFiles(...paths: string[]): void {
  for (const path of paths) if (existsSync(path)) chmodSync(path, PRIVATE_FILE_MODE);
}
