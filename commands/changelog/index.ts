/** The changelog-entry aggregate of the feedback board: one stream per announced item. */
import type { Decider } from '../shared/decider.js';
import { type ChangelogCommand, decideChangelog } from './decide.js';
import type { ChangelogEvent } from './events.js';
import { type ChangelogState, evolveChangelog, initialChangelogState } from './state.js';

export * from './decide.js';
export * from './events.js';
export * from './state.js';

export const changelogDecider: Decider<ChangelogState, ChangelogCommand, ChangelogEvent> = {
  initialState: initialChangelogState,
  evolve: evolveChangelog,
  decide: decideChangelog,
};

export const CHANGELOG_STREAM_PREFIX = 'changelog-';

/** `changelog-<workspaceId>.<ITEMKEY>`: one entry per shipped item (its survivor after merges). */
export const changelogStreamId = (workspaceId: string, itemKey: string): string =>
  `${CHANGELOG_STREAM_PREFIX}${workspaceId}.${itemKey}`;

/** The public id of the entry announcing an item. */
export const changelogEntryId = (itemKey: string): string => `chg-${itemKey}`;
