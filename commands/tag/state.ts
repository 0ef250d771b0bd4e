import type { TagEvent, TagFields } from './events.js';

export type TagState =
  | { status: 'absent'; revision: -1 }
  | {
      status: 'active' | 'deleted';
      tagId: string;
      userId: string;
      fields: TagFields;
      revision: number;
    };

export function initialTagState(): TagState {
  return { status: 'absent', revision: -1 };
}

export function evolveTag(state: TagState, event: TagEvent): TagState {
  const revision = state.revision + 1;
  if (event.type === 'NoteTagCreated') {
    const { tagId, userId, ...fields } = event.data;
    return { status: 'active', tagId, userId, fields, revision };
  }
  if (state.status === 'absent') return state;
  switch (event.type) {
    case 'NoteTagUpdated':
      return { ...state, fields: { ...event.data }, revision };
    case 'NoteTagDeleted':
      return { ...state, status: 'deleted', revision };
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}
