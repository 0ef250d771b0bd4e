/**
 * The data folder holds the signing keys, cookie keys, the app secret and (in development) the
 * sign-in codes: it is made 0700 and its files 0600 whatever the umask (issue 10 item 5), also
 * when an older version left them readable to every local user.
 */
import { chmodSync, existsSync, mkdirSync } from 'node:fs';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodSync(dir, PRIVATE_DIR_MODE);
}

/** chmod 0600 each file that exists (SQLite's -wal and -shm come and go) */
export function restrictFiles(...paths: string[]): void {
  for (const path of paths) if (existsSync(path)) chmodSync(path, PRIVATE_FILE_MODE);
}
