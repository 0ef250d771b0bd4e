/**
 * File flags (--file, --out). `npm run cli` runs in the repository's folder, so a relative path
 * is taken from where the operator typed the command (npm's INIT_CWD), not from there. A file
 * to write must not exist yet: `export --out` once replaced whatever it was given, the
 * instance's own event log included.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InputFileError, OutputFileError, UsageError } from './errors.js';

export function callerPath(path: string): string {
  return resolve(process.env.INIT_CWD ?? process.cwd(), path);
}

/** A file to read: there, and a file. */
export function fileToRead(path: string): string {
  const full = callerPath(path);
  if (!existsSync(full)) throw new InputFileError(`no file ${path}`);
  if (statSync(full).isDirectory()) throw new InputFileError(`${path} is a folder, not a file`);
  return full;
}

const alreadyThere = (path: string) =>
  new UsageError(`${path} already exists; give a new file name (nothing is overwritten)`);

/** A file to write: a new name in a folder that exists. */
export function fileToWrite(path: string): string {
  const full = callerPath(path);
  if (existsSync(full) && statSync(full).isDirectory()) {
    throw new UsageError(`${path} is a folder; give the name of a new file in it`);
  }
  if (existsSync(full)) throw alreadyThere(path);
  const folder = dirname(full);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    throw new UsageError(`no folder ${dirname(path)} to write ${path} in`);
  }
  return full;
}

/**
 * A file system error met while writing `path` (as the operator named it), in one line: the
 * file appeared meanwhile (EEXIST), the folder is not writable (EACCES), the disk is full.
 */
export function writeFailed(error: unknown, path: string): unknown {
  const { code, syscall } = (error ?? {}) as NodeJS.ErrnoException;
  if (!code || !syscall) return error;
  if (code === 'EEXIST') return alreadyThere(path);
  return new OutputFileError(`cannot write ${path} (${code}); nothing was written`);
}
