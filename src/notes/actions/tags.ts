/**
 * Tag actions: create, `planTags` (the tag names of a note as tag ids, creating the unknown
 * ones) and `tagStatus`; updates and deletes are in tag-edits.ts. Names are unique per user
 * among active tags: named.ts says how concurrent creates and renames of one name are made
 * exclusive, tag-tree.ts how the parent rules hold under concurrent moves and deletes.
 */
import { isEntityId } from '../../../commands/shared/user-scoped.js';
import {
  type CreateTag,
  type ParentLookup,
  tagDecider,
  tagNameKey,
} from '../../../commands/tag/index.js';
import type { TagStatus } from '../../../commands/note/index.js';
import {
  again,
  type CommandContext,
  checkUser,
  derivedId,
  keyedBy,
  latest,
  type NotesDeps,
  unkeyed,
  untilSettled,
} from './deps.js';
import { type CreateOptions, createNamed, keyedId, planNamed } from './named.js';
import type { Wanted } from './named-places.js';
import { intend, lookupParent, readTree } from './tag-tree.js';
import { loadTag, namedTags, sendToTag, type TagResult } from './tag-store.js';

export type { TagResult, TagSnapshot } from './tag-store.js';

interface TagFields {
  name: string;
  color: number | null;
  parentId: string | null;
}

export async function createTag(
  deps: NotesDeps,
  context: CommandContext,
  input: { userId: string; name: string; color?: number | null; parentId?: string | null },
): Promise<TagResult> {
  const { userId } = input;
  checkUser(userId);
  const fields = { name: input.name, color: input.color ?? null, parentId: input.parentId ?? null };
  // a retry is the same request when the client sent the same, whatever the tree became since
  const keyed = keyedBy(context, { type: 'CreateTag', ...fields });
  const key = context.idempotencyKey;
  if (key) {
    const first = await firstAttempt(deps, context, keyed, userId, fields);
    if (first) return first;
  }
  const at = key ? keyedId('tag', userId, key) : undefined;
  return create(deps, keyed, userId, fields, { reuse: false, keyedId: at });
}

/**
 * Tag ids for names, in order, without duplicates; unknown names become new tags. `kept`: tags
 * a name stands for before any active tag of that name (a note's deleted tags, by name key).
 * Planned first: `wanted` are the new ones, whose places the note takes (named-places.ts)
 * before `ensure` creates any; names the user has cost their lookup alone.
 */
export async function planTags(
  deps: NotesDeps,
  context: CommandContext,
  input: { userId: string; names: readonly string[]; kept?: ReadonlyMap<string, string> },
): Promise<{
  wanted: Wanted | null;
  ensure(): Promise<{ tagIds: string[]; position: bigint | null }>;
}> {
  const named = namedTags(deps, input.userId);
  const { now } = context;
  const found = new Map<string, string | null>(); // name key -> tag id, null: to create
  const ids: string[] = [];
  for (const name of input.names) {
    const key = tagNameKey(name);
    if (found.has(key)) continue;
    const kept = input.kept?.get(key);
    const plan = kept ? { held: { tag: { id: kept } } } : await planNamed(deps, named, name, now);
    found.set(key, 'held' in plan ? plan.held.tag.id : null);
    if ('id' in plan) ids.push(plan.id);
  }
  return { wanted: ids.length > 0 ? { named, ids } : null, ensure: () => ensure(found) };

  async function ensure(found: Map<string, string | null>) {
    let position: bigint | null = null;
    // the note's key is the note's: a tag of one of its names is anyone's afterwards
    const plain = unkeyed(context);
    const options = { reuse: true, placed: new Set(ids) };
    for (const name of input.names) {
      const key = tagNameKey(name);
      if (found.get(key) !== null) continue;
      const fields = { name, color: null, parentId: null };
      const result = await create(deps, plain, input.userId, fields, options);
      found.set(key, result.tag.id);
      position = latest(position, result.position);
    }
    return { tagIds: [...found.values()] as string[], position };
  }
}

/** What the user's tag of that id is: active, deleted or absent (another user's tag is absent). */
export async function tagStatus(
  deps: NotesDeps,
  userId: string,
  tagId: string,
): Promise<TagStatus> {
  if (!isEntityId(tagId)) return 'absent';
  const { state } = await loadTag(deps, userId, tagId);
  return state.status;
}

/**
 * A create sent with an Idempotency-Key that already landed is answered there. It landed at the
 * key's id, or — made before name claims — at its name's id or one derived from name and key
 * (compared then by the command, as it was then).
 */
async function firstAttempt(
  deps: NotesDeps,
  context: CommandContext,
  keyed: CommandContext,
  userId: string,
  fields: TagFields,
): Promise<TagResult | null> {
  const key = context.idempotencyKey!;
  const name = tagNameKey(fields.name);
  const places = [
    { tagId: keyedId('tag', userId, key), context: keyed },
    { tagId: derivedId('tag', userId, name), context },
    { tagId: derivedId('tag', userId, name, key), context },
  ];
  for (const place of places) {
    if (!(await loadTag(deps, userId, place.tagId, place.context)).retry) continue;
    const parent =
      fields.parentId === null
        ? null
        : await lookupParent(deps, userId, fields.parentId, null, context.now);
    const data = { tagId: place.tagId, userId, ...fields, parent };
    return sendToTag(deps, place.context, userId, place.tagId, { type: 'CreateTag', data });
  }
  return null;
}

/** Create a tag named `name`; `reuse` answers with an existing same-named tag instead of 409. */
async function create(
  deps: NotesDeps,
  context: CommandContext,
  userId: string,
  fields: TagFields,
  options: Pick<CreateOptions<unknown>, 'reuse' | 'keyedId' | 'placed'>,
): Promise<TagResult> {
  const command = (tagId: string, parent: ParentLookup | null): CreateTag => ({
    type: 'CreateTag',
    data: { tagId, userId, ...fields, parent },
  });
  // what the decider refuses is refused before anything is claimed or intended
  const check = (parent: ParentLookup | null) =>
    tagDecider.decide(command('', parent), tagDecider.initialState());
  let parent: ParentLookup | null = null;
  if (fields.parentId === null) check(null);
  else parent = await underParent(deps, context, userId, fields.parentId, check);
  return createNamed(deps, context, namedTags(deps, userId), fields.name, {
    ...options,
    create: (tagId) => sendToTag(deps, context, userId, tagId, command(tagId, parent)),
  });
}

/** A create under a parent is ordered in the user's tag tree first (tag-tree.ts). */
function underParent(
  deps: NotesDeps,
  context: CommandContext,
  userId: string,
  parentId: string,
  check: (parent: ParentLookup) => unknown,
): Promise<ParentLookup> {
  return untilSettled(async () => {
    const tree = await readTree(deps, userId);
    const parent = await lookupParent(deps, userId, parentId, tree, context.now);
    check(parent);
    // the new tag cannot be reached by any other change yet, so its intent names no tag
    const intent = { tagId: null, tagRevision: -1, parentId, deleted: false };
    return (await intend(deps, context, userId, tree, intent)) ? parent : again;
  }, 'the tag tree');
}
