/**
 * The parent rules (no cycle, parent not deleted) under concurrent changes. A move, a create
 * under a parent and a delete each append an intent to the user's tag tree
 * (commands/tag/tree.ts) at the tree revision read before the parents were looked up, and write
 * the tag only after that, at the tag revision the intent names.
 *
 * Why no race gets through: the intents are totally ordered by the tree stream's revisions,
 * and an intent is appended only if no other came after the revision its change read — so
 * every change looked its parents up after all earlier intents were appended. Each earlier
 * change is then seen: landed (the tag's stream), or still on its way (the tag's stream is at
 * the intent's revision), in which case both the old and the new parent count as parents and a
 * delete counts already. A change whose write cannot land any more (its tag moved on) is seen
 * as the tag's stream says. So in the intents' order each change was checked against every
 * earlier one: a cycle needs a last move, and that move's check saw all the others; a move or
 * create under a parent ordered after the parent's delete sees the delete and is refused. A
 * move ordered before the delete lands as if made first (PUT then DELETE: the tag's event names
 * the deleted parent, as it does sequentially, and the read model shows it where the deleted
 * tag's other children went, projections/tags/projector.ts).
 *
 * Limits: an intent stops counting once it is older than the claim lease (30 s); a writer
 * stalled that long between its intent and its write could still land unseen. Moves to the top
 * level need no intent: they cannot make a cycle, and a check that still sees the old parent
 * only refuses more.
 */
import { InvalidArgument } from '../../../commands/shared/errors.js';
import { RevisionMismatch } from '../../../commands/shared/revision.js';
import { isEntityId } from '../../../commands/shared/user-scoped.js';
import {
  type ParentLookup,
  pendingIntent,
  type TagTreeState,
  type TreeIntent,
  tagTreeDecider,
  tagTreeStreamId,
} from '../../../commands/tag/index.js';
import { type CommandContext, type NotesDeps, unkeyed } from './deps.js';
import { loadTag } from './tag-store.js';

/** Deepest ancestor chain followed when checking for cycles; deeper trees are refused. */
const maxTagDepth = 64;

/** The user's tag tree, read before the lookups its intent will follow. */
export async function readTree(deps: NotesDeps, userId: string): Promise<TagTreeState> {
  return (await deps.commandHandler.load(tagTreeStreamId(userId), tagTreeDecider)).state;
}

/**
 * The parent's status and its ancestors for the decider's parent rules, counting the changes
 * of `tree` still on their way (without a tree: the tag streams as they are).
 */
export async function lookupParent(
  deps: NotesDeps,
  userId: string,
  parentId: string,
  tree: TagTreeState | null,
  now: number,
): Promise<ParentLookup> {
  if (!isEntityId(parentId)) return { status: 'absent', ancestorIds: [] };
  const view = async (tagId: string) => {
    const { state, revision } = await loadTag(deps, userId, tagId);
    if (state.status === 'absent') return null;
    const intent = tree && pendingIntent(tree, tagId, revision, now);
    const parents = [state.fields.parentId, intent?.parentId ?? null];
    return {
      deleted: state.status === 'deleted' || intent?.deleted === true,
      parents: [...new Set(parents)].filter((p): p is string => p !== null),
    };
  };
  const parent = await view(parentId);
  if (!parent) return { status: 'absent', ancestorIds: [] };
  const ancestorIds: string[] = [];
  const queue = [...parent.parents];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (next === parentId || ancestorIds.includes(next)) continue;
    if (ancestorIds.length >= maxTagDepth) {
      throw new InvalidArgument(`tags nest at most ${maxTagDepth} levels deep`);
    }
    ancestorIds.push(next);
    queue.push(...((await view(next))?.parents ?? []));
  }
  return { status: parent.deleted ? 'deleted' : 'active', ancestorIds };
}

/**
 * Append the change's intent after the tree revision `tree` was read at; false when another
 * tree change came first, so the lookups must be made again.
 */
export async function intend(
  deps: NotesDeps,
  context: CommandContext,
  userId: string,
  tree: TagTreeState,
  intent: Omit<TreeIntent, 'at'>,
): Promise<boolean> {
  const data = { ...intent, at: context.now, expectedRevision: tree.revision };
  try {
    await deps.commandHandler.handle(
      tagTreeStreamId(userId),
      tagTreeDecider,
      { type: 'IntendTreeChange', data },
      unkeyed(context),
    );
    return true;
  } catch (error) {
    if (error instanceof RevisionMismatch) return false;
    throw error;
  }
}
