import { Conflict } from './errors.js';

/**
 * The client's If-Match (expected revision) is not the current revision of the note, tag or
 * device: someone else changed it since the client read it. A Conflict, which the notes
 * envelope answers with 412 Precondition Failed.
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
