import { Conflict } from '../shared/errors.js';

/**
 * The client's If-Match (expected revision) is not the note's current revision: someone else
 * changed it since the client read it. A Conflict, so generic mapping still works; the HTTP
 * layer answers 412 Precondition Failed for this subclass.
 */
export class RevisionMismatch extends Conflict {
  constructor(
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`the resource changed (revision ${actual}, expected ${expected}); read it again`);
  }
}

export function checkRevision(expected: number | undefined, actual: number): void {
  if (expected !== undefined && expected !== actual) throw new RevisionMismatch(expected, actual);
}
