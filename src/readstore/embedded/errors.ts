/**
 * Typed errors of the embedded read store. The first four mean the caller sent something
 * MongoDB would also reject, so they surface as programming errors, never as a silently
 * different result (as MongoDB's own refusals do: the adapter passes them on unmapped, and the
 * HTTP layer answers both as internal errors); the last is the file's.
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
