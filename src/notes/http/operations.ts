/**
 * Every operation of the notes service, in one list for the registry (routes, OpenAPI at
 * /docs/json, /docs). The order is the order of the OpenAPI document's paths.
 */
import { deviceOperations } from './devices/index.js';
import { noteOperations } from './notes/index.js';
import { syncChangesOperation } from './sync/sync-changes.js';
import { tagOperations } from './tags/index.js';
import type { NotesHttpDeps, NotesOperation } from './types.js';

export function notesOperations(deps: NotesHttpDeps): NotesOperation[] {
  return [
    ...noteOperations(deps),
    ...tagOperations(deps),
    ...deviceOperations(deps),
    syncChangesOperation(deps),
  ];
}
