/**
 * Typed errors of the embedded read store. The first four mean the caller sent something
 * MongoDB would also reject, so they surface as programming errors, never as a silently
 * different result (as MongoDB's own refusals do: the adapter passes them on unmapped, and the
 * HTTP layer answers both as internal errors); the last, and the two answers below, are the
 * file's: what it holds cannot be read, it cannot be opened, it refused a write.
 */
import { ReadStoreUnavailableError } from '../types.js';

/** A document (or a value in an update) that cannot be stored as JSON. */
export class InvalidDocumentError extends Error {
  override readonly name = 'InvalidDocumentError';
}

/** A filter MongoDB would refuse: `$or: []`, an unknown operator, `$in` without an array, ... */
export class InvalidFilterError extends Error {
  override readonly name = 'InvalidFilterError';
}

/** An update MongoDB would refuse: unknown operator, `$inc` on a string, changing `_id`, ... */
export class InvalidUpdateError extends Error {
  override readonly name = 'InvalidUpdateError';
}

/** createIndex with a name that already exists with other keys or options (as MongoDB refuses). */
export class IndexConflictError extends Error {
  override readonly name = 'IndexConflictError';
}

export interface UnreadableDocument {
  collection: string;
  /** the document's id (`index <name>` for an index declaration) */
  id: string;
  reason: string;
}

/**
 * Stored documents that cannot be read (JSON cut or garbled, bytes where text belongs): the
 * store does not open rather than serve without them. A process turns it into advice
 * (src/platform/unreadable-read-models.ts): read models are rebuilt from the event log.
 */
export class UnreadableDocumentsError extends ReadStoreUnavailableError {
  constructor(
    readonly path: string,
    readonly documents: readonly UnreadableDocument[],
  ) {
    const named = documents
      .slice(0, 3)
      .map((d) => `${d.collection}/${d.id}: ${d.reason}`)
      .join('; ');
    const more = documents.length > 3 ? `; and ${documents.length - 3} more` : '';
    super(
      `read store file ${path}: ${documents.length} stored document${documents.length === 1 ? '' : 's'} cannot be read (${named}${more})`,
    );
  }

  /** the collections holding them, each once */
  get collections(): string[] {
    return [...new Set(this.documents.map((d) => d.collection))];
  }
}

/**
 * SQLite's codes for a file it cannot write now — disk full, an I/O error, a read-only file
 * system, a lock held too long — as ReadStoreUnavailableError: the flush is tried again and the
 * process reports itself not ready (failure audit: a full disk stopped the projection engine for
 * good, every later write answering 500 while /readyz said ok). Any other error is a bug.
 */
const FILE_REFUSALS = /^SQLITE_(FULL|IOERR|READONLY|BUSY|LOCKED|CANTOPEN|NOMEM|PROTOCOL)/;

export function refusedByFile(path: string, error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !FILE_REFUSALS.test(code)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new ReadStoreUnavailableError(`read store file ${path} refused a write: ${reason}`, {
    cause: error,
  });
}

export function unavailable(path: string, error: unknown): ReadStoreUnavailableError {
  const reason = error instanceof Error ? error.message : String(error);
  return new ReadStoreUnavailableError(
    `read store file ${path} cannot be opened as a read-store SQLite database (${reason}); ` +
      'refusing to start with empty read models — restore the file from a backup; do not move ' +
      'it away: on the embedded default it also holds the event log (`npm run cli -- verify` ' +
      'checks the log)',
    { cause: error },
  );
}
