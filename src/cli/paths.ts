/**
 * File flags (--file, --out). `npm run cli` runs in the repository's folder, so a relative path
 * is taken from where the operator typed the command (npm's INIT_CWD), not from there. A file
 * to write must not exist yet: `export --out` once replaced whatever it was given, the
 * instance's own event log included.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InputFileError, UsageError } from './errors.js';

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

/** A file to write: a new name in a folder that exists. */
export function fileToWrite(path: string): string {
  const full = callerPath(path);
  if (existsSync(full)) {
    throw new UsageError(`${path} already exists; give a new file name (nothing is overwritten)`);
  }
  const folder = dirname(full);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    throw new UsageError(`no folder ${dirname(path)} to write ${path} in`);
  }
  return full;
}
