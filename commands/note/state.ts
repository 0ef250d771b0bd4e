/**
 * Folded state of one note. `revision` counts the stream's events (last revision, -1 before the
 * first), so the decider can compare a client's If-Match against it inside the same
 * load → decide → append cycle that the append's optimistic concurrency protects.
 */
import type { NoteEvent, NoteVersion } from './events.js';

export type NoteState =
  | { status: 'absent'; revision: -1 }
  | {
      status: 'active' | 'trashed';
      noteId: string;
      userId: string;
      version: NoteVersion;
      revision: number;
    };

export function initialNoteState(): NoteState {
  return { status: 'absent', revision: -1 };
}

export function evolveNote(state: NoteState, event: NoteEvent): NoteState {
  const revision = state.revision + 1;
  if (event.type === 'NoteCreated') {
    const { noteId, userId, ...version } = event.data;
    return { status: 'active', noteId, userId, version, revision };
  }
  // Every later event needs a created note; a stream that starts otherwise is not a note.
  if (state.status === 'absent') return state;
  switch (event.type) {
    case 'NoteUpdated':
      return { ...state, version: { ...event.data }, revision };
    case 'TagAddedToNote':
      return {
        ...state,
        version: { ...state.version, tagIds: [...state.version.tagIds, event.data.tagId] },
        revision,
      };
    case 'TagRemovedFromNote':
      return {
        ...state,
        version: {
          ...state.version,
          tagIds: state.version.tagIds.filter((id) => id !== event.data.tagId),
        },
        revision,
      };
    case 'NoteTrashed':
      return { ...state, status: 'trashed', revision };
    case 'NoteRestored':
      return { ...state, status: 'active', revision };
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}
