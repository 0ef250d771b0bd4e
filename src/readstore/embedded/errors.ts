/**
 * Typed errors of the embedded read store. Both mean the caller sent something MongoDB would
 * also reject, so they surface as programming errors, never as a silently different result.
 */

/** A document (or a value in an update) that cannot be stored as JSON. */
export class InvalidDocumentError extends Error {
  override readonly name = 'InvalidDocumentError';
}

/** An update MongoDB would refuse: unknown operator, `$inc` on a string, changing `_id`, ... */
export class InvalidUpdateError extends Error {
  override readonly name = 'InvalidUpdateError';
}

/** createIndex with a name that already exists with other keys or options (as MongoDB refuses). */
export class IndexConflictError extends Error {
  override readonly name = 'IndexConflictError';
}
