/**
 * Checks on the SQLite data file done before SQLite touches it. SQLite opens almost anything
 * lazily and will happily turn a zero-byte or missing file into an empty database; an event log
 * that silently starts empty after a disk problem loses history, so every doubtful file is
 * refused here with a message naming it.
 */
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { EventStoreUnavailableError } from '../types.js';

const SQLITE_MAGIC = 'SQLite format 3\u0000';
const HEADER_BYTES = 100;

export type DataFileState = 'missing' | 'present';

export function unavailable(
  path: string,
  reason: string,
  cause?: unknown,
): EventStoreUnavailableError {
  const error = new EventStoreUnavailableError(`event store file ${path}: ${reason}`);
  if (cause !== undefined) (error as { cause?: unknown }).cause = cause;
  return error;
}

/** Throws EventStoreUnavailableError for anything that is not a plausible, whole SQLite file. */
export function inspectDataFile(path: string): DataFileState {
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw unavailable(path, `cannot be inspected (${(error as Error).message})`, error);
  }
  if (stats.isDirectory()) throw unavailable(path, 'is a directory, expected a SQLite file');
  if (!stats.isFile()) throw unavailable(path, 'is not a regular file');

  const header = readHeader(path, stats.size);
  if (header.length < HEADER_BYTES) {
    throw unavailable(
      path,
      `is ${stats.size} bytes, too short to be a SQLite database (truncated or not initialised); refusing to start empty`,
    );
  }
  if (header.toString('latin1', 0, 16) !== SQLITE_MAGIC) {
    throw unavailable(path, 'is not a SQLite database (bad header); refusing to start empty');
  }
  checkNotTruncated(path, header, stats.size);
  return 'present';
}

function readHeader(path: string, size: number): Buffer {
  const length = Math.min(size, HEADER_BYTES);
  const buffer = Buffer.alloc(length);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw unavailable(path, `cannot be read (${(error as Error).message})`, error);
  }
  try {
    let read = 0;
    while (read < length) {
      const n = readSync(fd, buffer, read, length - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read);
  } catch (error) {
    throw unavailable(path, `cannot be read (${(error as Error).message})`, error);
  } finally {
    closeSync(fd);
  }
}

/**
 * The header records the database size in pages. When no write-ahead log holds newer pages,
 * a file shorter than that size lost its tail: SQLite would only notice when a query reaches a
 * missing page, possibly long after start.
 */
function checkNotTruncated(path: string, header: Buffer, fileSize: number): void {
  const rawPageSize = header.readUInt16BE(16);
  const pageSize = rawPageSize === 1 ? 65536 : rawPageSize;
  const changeCounter = header.readUInt32BE(24);
  const pageCount = header.readUInt32BE(28);
  const validFor = header.readUInt32BE(92);
  const pageSizeValid = pageSize >= 512 && (pageSize & (pageSize - 1)) === 0;
  if (!pageSizeValid)
    throw unavailable(path, `has an invalid page size (${rawPageSize}); the file is garbled`);
  if (pageCount === 0 || validFor !== changeCounter) return;
  if (walHasContent(path)) return;
  const expected = pageCount * pageSize;
  if (fileSize < expected) {
    throw unavailable(
      path,
      `is truncated: ${fileSize} bytes on disk, header says ${expected}; refusing to start with missing history`,
    );
  }
}

function walHasContent(path: string): boolean {
  const wal = `${path}-wal`;
  if (!existsSync(wal)) return false;
  try {
    return statSync(wal).size > 0;
  } catch {
    return false;
  }
}
