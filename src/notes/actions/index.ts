/**
 * The notes service's actions (write side), HTTP-agnostic: the HTTP operations, the MCP tools
 * and tests call these. Each returns what a response needs plus `position`; wait for the
 * projections to reach it before reading, so the client sees its own write.
 */
import { deviceActions } from './devices.js';
import { noteActions } from './notes.js';
import type { NotesActionDeps } from './support.js';
import { tagActions } from './tags.js';

export type { DeviceResult, DeviceSnapshot } from './devices.js';
export * from './input.js';
export type { NoteResult, NoteSnapshot } from './notes.js';
export type { ActionResult, CommandContext, NotesActionDeps } from './support.js';
export type { TagResult, TagSnapshot } from './tags.js';

export function createNotesActions(deps: NotesActionDeps) {
  const tags = tagActions(deps);
  const devices = deviceActions(deps);
  const notes = noteActions(deps, tags, devices);
  return {
    ...notes,
    createTag: tags.createTag,
    updateTag: tags.updateTag,
    deleteTag: tags.deleteTag,
    registerDevice: devices.registerDevice,
    updateDevice: devices.updateDevice,
  };
}

export type NotesActions = ReturnType<typeof createNotesActions>;
