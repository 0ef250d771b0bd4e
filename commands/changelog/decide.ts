import { emptyOrReadableText, nameText } from '../shared/text.js';
import type { ChangelogEntryFields, ChangelogEvent } from './events.js';
import type { ChangelogState } from './state.js';

export type PublishChangelogEntry = {
  type: 'PublishChangelogEntry';
  data: ChangelogEntryFields & {
    entryId: string;
    workspaceId: string;
    productKey: string;
    itemKey: string;
  };
};
export type ChangelogCommand = PublishChangelogEntry;

const FIELDS = ['title', 'body', 'itemIds', 'requestedByNames', 'requestedByCount'] as const;

export function decideChangelog(
  command: ChangelogCommand,
  state: ChangelogState,
): ChangelogEvent[] {
  switch (command.type) {
    case 'PublishChangelogEntry': {
      const { data } = command;
      nameText(data.title, 'title', 500);
      // spec: body "0 to 50000 chars"; one that holds only spaces or U+200B shows nothing
      emptyOrReadableText(data.body, 'body', 50_000);
      if (state.status === 'absent') return [{ type: 'ChangelogEntryPublished', data }];
      // publishing the same text again is safe to repeat: nothing changes
      const revised: Partial<ChangelogEntryFields> = {};
      for (const field of FIELDS) {
        if (JSON.stringify(data[field]) !== JSON.stringify(state.entry[field]))
          Object.assign(revised, { [field]: data[field] });
      }
      if (Object.keys(revised).length === 0) return [];
      // who is behind the names is not shown: it is revised with what is, never alone
      if (JSON.stringify(data.requestedBy) !== JSON.stringify(state.entry.requestedBy))
        revised.requestedBy = data.requestedBy;
      return [{ type: 'ChangelogEntryRevised', data: revised }];
    }
    default: {
      const _exhaustive: never = command.type;
      return [];
    }
  }
}
