/**
 * Tag updates (rename, recolour, move) and soft deletes. Before the tag's own event, a rename
 * claims its new name (named.ts) and a move or delete is ordered in the user's tag tree
 * (tag-tree.ts); the event is then appended after exactly the revision those were made for, and
 * if the tag changed meanwhile, the whole is done again on the tag as it is now (or, when the
 * client sent If-Match, refused with 412 as before).
 */
import { RevisionMismatch } from '../../../commands/shared/revision.js';
import {
  type TagCommand,
  type TagState,
  tagDecider,
  tagNameKey,
} from '../../../commands/tag/index.js';
import {
  again,
  asSent,
  type CommandContext,
  checkId,
  checkUser,
  keyedBy,
  type NotesDeps,
  type Precondition,
  untilSettled,
} from './deps.js';
import { claimName } from './named.js';
import { intend, lookupParent, readTree } from './tag-tree.js';
import { loadTag, namedTags, sendToTag, type TagResult } from './tag-store.js';

type TagRef = { userId: string; tagId: string } & Precondition;

/** Absent fields keep their value; null clears the colour / moves the tag to the top level. */
export async function updateTag(
  deps: NotesDeps,
  context: CommandContext,
  input: TagRef & { name?: string; color?: number | null; parentId?: string | null },
): Promise<TagResult> {
  const { userId, tagId, expectedRevision, ifMatch, ...fields } = input;
  checkUser(userId);
  checkId(tagId, 'tag');
  const request = { tagId, ...fields, expectedRevision, ifMatch };
  const keyed = keyedBy(context, { type: 'UpdateTag', ...asSent(request) });
  const first: TagCommand = { type: 'UpdateTag', data: { ...fields, expectedRevision } };
  return edit(deps, keyed, input, first, async (state, revision) => {
    // a parent sent is looked up also when the tag's events name it already: deleted since, it
    // is no parent to keep (the read model shows the tag where the delete moved it)
    const moving = state.status === 'active' && !!fields.parentId;
    const tree = moving ? await readTree(deps, userId) : null;
    const parent =
      moving && fields.parentId
        ? await lookupParent(deps, userId, fields.parentId, tree, context.now)
        : null;
    const command: TagCommand = {
      type: 'UpdateTag',
      data: { ...fields, parent, expectedRevision: expectedRevision ?? revision },
    };
    // refused here what the decider refuses, before anything is claimed or intended
    if (tagDecider.decide(command, state).length === 0 || state.status !== 'active') return command;
    if (fields.name !== undefined && tagNameKey(fields.name) !== tagNameKey(state.fields.name)) {
      const target = { id: tagId, revision };
      await claimName(deps, context, namedTags(deps, userId), target, fields.name);
    }
    if (tree && fields.parentId) {
      const intent = { tagId, tagRevision: revision, parentId: fields.parentId, deleted: false };
      if (!(await intend(deps, context, userId, tree, intent))) return again;
    }
    return command;
  });
}

/** Soft delete: notes keep the tag id; the tag leaves lists and name lookups. */
export async function deleteTag(
  deps: NotesDeps,
  context: CommandContext,
  input: TagRef,
): Promise<TagResult> {
  const { userId, tagId, expectedRevision } = input;
  checkUser(userId);
  checkId(tagId, 'tag');
  const request = { tagId, expectedRevision, ifMatch: input.ifMatch };
  const keyed = keyedBy(context, { type: 'DeleteTag', ...asSent(request) });
  const first: TagCommand = { type: 'DeleteTag', data: { expectedRevision } };
  return edit(deps, keyed, input, first, async (state, revision) => {
    const command: TagCommand = {
      type: 'DeleteTag',
      data: { expectedRevision: expectedRevision ?? revision },
    };
    if (tagDecider.decide(command, state).length === 0 || state.status !== 'active') return command;
    // ordered in the tree, so that a move or create under it ordered later sees it deleted
    const tree = await readTree(deps, userId);
    const { parentId } = state.fields;
    const intent = { tagId, tagRevision: revision, parentId, deleted: true };
    return (await intend(deps, context, userId, tree, intent)) ? command : again;
  });
}

/**
 * Load the tag, let `prepare` make the command for it (claiming and intending what it needs),
 * and send it after exactly the revision loaded. A retry of a write that landed is sent as
 * `first` and answered from its first attempt's events (the handler compares the request,
 * keyedBy), without the checks: the name or the tree may have changed since.
 */
function edit(
  deps: NotesDeps,
  context: CommandContext,
  ref: TagRef,
  first: TagCommand,
  prepare: (state: TagState, revision: number) => Promise<TagCommand | typeof again>,
): Promise<TagResult> {
  const { userId, tagId } = ref;
  return untilSettled(async () => {
    const { state, revision, retry } = await loadTag(deps, userId, tagId, context);
    const command = retry ? first : await prepare(state, revision);
    if (command === again) return again;
    try {
      return await sendToTag(deps, context, userId, tagId, command);
    } catch (error) {
      // the tag changed after it was loaded: do it again on the tag as it is, unless the client
      // named the revision it meant (If-Match)
      if (error instanceof RevisionMismatch && ref.expectedRevision === undefined) return again;
      throw error;
    }
  }, 'the tag');
}
