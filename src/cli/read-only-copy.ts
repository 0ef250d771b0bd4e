/**
 * A data file the CLI must not write, read all the same (failure audit F9: `verify` refused a
 * backup mounted read-only). SQLite cannot read the embedded file in place there without
 * writing beside it: the file is in WAL mode, whose readers need a `-shm` file next to it and
 * make one (SQLITE_READONLY_DIRECTORY where they cannot), and the open that needs none —
 * SQLite's `immutable` — takes a URI filename, which better-sqlite3 is built without
 * (SQLITE_USE_URI=0). So the verbs that only read (verify, export) read a private copy of the
 * file and its write-ahead log, made in the temporary folder and removed afterwards: SQLite
 * applies the log's last commits to the copy as it would on a writable folder, so they report
 * exactly what they report there, and the original is never opened by SQLite at all.
 */
import {
  accessSync,
  chmodSync,
  constants,
  copyFileSync,
  existsSync,
  mkdtempSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { markedReadOnly } from '../config/data-dir.js';
import { PRIVATE_FILE_MODE } from '../platform/private-files.js';
import { OutputFileError } from './errors.js';

/**
 * This user cannot write the data file's folder or one of its files (a read-only mount, 0444
 * files), or they are marked read-only (no write bit for their owner): root, whom modes do not stop,
 * leaves such a copy alone as well.
 */
export function mustNotWrite(file: string): boolean {
  const paths = [dirname(file), file, `${file}-wal`, `${file}-shm`].filter((p) => existsSync(p));
  return paths.some((path) => {
    if (markedReadOnly(path)) return true;
    try {
      accessSync(path, constants.W_OK);
      return false;
    } catch {
      return true;
    }
  });
}

/** Runs `read` over a private copy of `file` (and its `-wal`), removed when it ends. */
export async function withPrivateCopy<T>(
  file: string,
  read: (copy: string) => Promise<T>,
): Promise<T> {
  const folder = mkdtempSync(join(tmpdir(), 'cli-read-'));
  try {
    const copy = join(folder, basename(file));
    for (const suffix of ['', '-wal']) {
      if (existsSync(`${file}${suffix}`)) copyPrivately(`${file}${suffix}`, `${copy}${suffix}`);
    }
    return await read(copy).catch((error) => {
      // an error about the copy is about the file the operator named
      if (error instanceof Error) error.message = error.message.replaceAll(folder, dirname(file));
      throw error;
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function copyPrivately(from: string, to: string): void {
  try {
    // a reflink where the file system makes one: no second copy of the bytes
    copyFileSync(from, to, constants.COPYFILE_FICLONE);
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    throw new OutputFileError(
      `cannot copy ${from} to ${dirname(to)} to read it there (${code}): this user must not write its folder, so it is not read in place; set TMPDIR to a folder with room for it`,
    );
  }
  chmodSync(to, PRIVATE_FILE_MODE);
}
