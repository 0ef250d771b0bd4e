/** What the tag actions share: a tag's stream, its snapshot, and the tag as a named thing. */
import { NotFound } from '../../../commands/shared/errors.js';
import {
  type TagCommand,
  type TagState,
  tagDecider,
  tagNameKey,
  tagStreamId,
} from '../../../commands/tag/index.js';
import { activeTagIds, findTagByName } from '../../../projections/tags/queries.js';
import { type ActionResult, type CommandContext, type NotesDeps, notesLimits } from './deps.js';
import type { Named } from './named.js';

export interface TagSnapshot {
  id: string;
  name: string;
  color: number | null;
  parentId: string | null;
  deleted: boolean;
  revision: number;
}

export type TagResult = ActionResult & { tag: TagSnapshot };

export function snapshot(state: TagState): TagSnapshot {
  if (state.status === 'absent') throw new NotFound('tag not found');
  return {
    id: state.tagId,
    ...state.fields,
    deleted: state.status === 'deleted',
    revision: state.revision,
  };
}

/** The tag's state as stored; with `context`, whether its Idempotency-Key is on the stream. */
export function loadTag(deps: NotesDeps, userId: string, tagId: string, context?: CommandContext) {
  return deps.commandHandler.load(tagStreamId(userId, tagId), tagDecider, context);
}

export async function sendToTag(
  deps: NotesDeps,
  context: CommandContext,
  userId: string,
  tagId: string,
  command: TagCommand,
): Promise<TagResult> {
  const result = await deps.commandHandler.handle(
    tagStreamId(userId, tagId),
    tagDecider,
    command,
    context,
  );
  const { revision, position, replayed } = result;
  return { tag: snapshot(result.state), revision, position, replayed };
}

/** The user's tags as named.ts sees them: a name is held by an active tag. */
export function namedTags(deps: NotesDeps, userId: string): Named<TagResult> {
  return {
    kind: 'tag',
    userId,
    keyOf: tagNameKey,
    findByName: (name) => findTagByName(deps.readStore, userId, name),
    listedIds: () => activeTagIds(deps.readStore, userId),
    most: (deps.limits ?? notesLimits).tagsPerUser,
    setting: 'NOTES_TAGS_PER_USER',
    async load(tagId) {
      const { state, revision } = await loadTag(deps, userId, tagId);
      return {
        revision,
        liveName: state.status === 'active' ? state.fields.name : null,
        answer: () => ({ tag: snapshot(state), revision, position: null, replayed: false }),
      };
    },
  };
}
