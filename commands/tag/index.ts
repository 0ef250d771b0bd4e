/** The tag aggregate of the notes service: one stream per tag, `notetag-<userId>.<tagId>`. */
import { splitUserScopedStream } from '../shared/user-scoped.js';
import type { Decider } from '../shared/decider.js';
import { decideTag, type TagCommand } from './decide.js';
import type { TagEvent } from './events.js';
import { evolveTag, initialTagState, type TagState } from './state.js';

export * from './decide.js';
export * from './events.js';
export * from './name-claim.js';
export * from './palette.js';
export * from './roster.js';
export * from './rules.js';
export * from './state.js';
export * from './tree.js';

export const tagDecider: Decider<TagState, TagCommand, TagEvent> = {
  initialState: initialTagState,
  evolve: evolveTag,
  decide: decideTag,
};

export const tagStreamPrefix = 'notetag-';

export function tagStreamId(userId: string, tagId: string): string {
  return `${tagStreamPrefix}${userId}.${tagId}`;
}

export function parseTagStreamId(streamId: string): { userId: string; tagId: string } | null {
  const parts = splitUserScopedStream(tagStreamPrefix, streamId);
  return parts && { userId: parts.userId, tagId: parts.id };
}
