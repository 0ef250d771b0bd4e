import { AlreadyExists, FailedPrecondition, NotFound } from '../shared/errors.js';
import type { NoteCommand } from './commands.js';
import { checkRevision } from './errors.js';
import type { NoteEvent, NoteVersion } from './events.js';
import { checkVersion, sameVersion, uniqueIds } from './rules.js';
import type { NoteState } from './state.js';

type Existing = Exclude<NoteState, { status: 'none' }>;

export function decideNote(command: NoteCommand, state: NoteState): NoteEvent[] {
  switch (command.type) {
    case 'CreateNote': {
      if (state.status !== 'none') throw new AlreadyExists('note already exists');
      const { noteId, userId, ...rest } = command.data;
      const version: NoteVersion = { ...rest, tagIds: uniqueIds(rest.tagIds) };
      checkVersion(version);
      return [{ type: 'NoteCreated', data: { noteId, userId, ...version } }];
    }
    case 'UpdateNote': {
      const note = editable(state, command.data.expectedRevision);
      const { title, content, metadata } = command.data;
      const tagIds = uniqueIds(command.data.tagIds ?? note.version.tagIds);
      const version: NoteVersion = { title, content, tagIds, metadata };
      checkVersion(version);
      // Nothing changed: no new version to archive, no event.
      if (sameVersion(version, note.version)) return [];
      return [{ type: 'NoteUpdated', data: version }];
    }
    case 'AddTagToNote': {
      const note = editable(state, command.data.expectedRevision);
      if (!command.data.tagExists) throw new NotFound('tag not found');
      if (note.version.tagIds.includes(command.data.tagId)) return [];
      checkVersion({ ...note.version, tagIds: [...note.version.tagIds, command.data.tagId] });
      return [{ type: 'TagAddedToNote', data: { tagId: command.data.tagId } }];
    }
    case 'RemoveTagFromNote': {
      const note = editable(state, command.data.expectedRevision);
      // A tag already on the note can be removed even after the tag was deleted (the spec
      // leaves associations of deleted tags alone, so they must stay removable).
      if (note.version.tagIds.includes(command.data.tagId)) {
        return [{ type: 'TagRemovedFromNote', data: { tagId: command.data.tagId } }];
      }
      if (!command.data.tagExists) throw new NotFound('tag not found');
      return [];
    }
    case 'TrashNote': {
      const note = existing(state, command.data.expectedRevision);
      return note.status === 'trashed' ? [] : [{ type: 'NoteTrashed', data: {} }];
    }
    case 'RestoreNote': {
      const note = existing(state, command.data.expectedRevision);
      return note.status === 'active' ? [] : [{ type: 'NoteRestored', data: {} }];
    }
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}

function existing(state: NoteState, expectedRevision: number | undefined): Existing {
  if (state.status === 'none') throw new NotFound('note not found');
  checkRevision(expectedRevision, state.revision);
  return state;
}

/** A trashed note is read-only until restored, so Trash shows exactly what was trashed. */
function editable(state: NoteState, expectedRevision: number | undefined): Existing {
  const note = existing(state, expectedRevision);
  if (note.status === 'trashed') {
    throw new FailedPrecondition('note is in the trash; restore it before changing it');
  }
  return note;
}
