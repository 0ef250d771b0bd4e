import type { ChangelogEntryFields, ChangelogEvent } from './events.js';

export type ChangelogState =
  | { status: 'absent' }
  | {
      status: 'published';
      entryId: string;
      workspaceId: string;
      productKey: string;
      itemKey: string;
      entry: ChangelogEntryFields;
    };

export const initialChangelogState = (): ChangelogState => ({ status: 'absent' });

export function evolveChangelog(state: ChangelogState, event: ChangelogEvent): ChangelogState {
  switch (event.type) {
    case 'ChangelogEntryPublished': {
      const { entryId, workspaceId, productKey, itemKey, ...entry } = event.data;
      return { status: 'published', entryId, workspaceId, productKey, itemKey, entry };
    }
    case 'ChangelogEntryRevised':
      if (state.status === 'absent') return state;
      return { ...state, entry: { ...state.entry, ...event.data } };
    default: {
      const _exhaustive: never = event;
      return state;
    }
  }
}
