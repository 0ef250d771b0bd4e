/**
 * Tag actions: create, update (rename, recolour, move), soft delete, and `ensureTags`, which
 * turns the tag names of a note into tag ids, creating the unknown ones. Names are unique per
 * user among active tags; named.ts says how concurrent creates of one name converge.
 */
import { isEntityId } from '../../../commands/shared/user-scoped.js';
import { AlreadyExists, InvalidArgument, NotFound } from '../../../commands/shared/errors.js';
import {
  type ParentLookup,
  type TagCommand,
  type TagState,
  tagDecider,
  tagNameKey,
  tagStreamId,
} from '../../../commands/tag/index.js';
import type { TagStatus } from '../../../commands/note/index.js';
import { findTagByName } from '../../../projections/tags/queries.js';
import {
  type ActionResult,
  type CommandContext,
  checkId,
  checkUser,
  latest,
  type NotesDeps,
} from './deps.js';
import { createNamed } from './named.js';

/** Deepest ancestor chain followed when checking for cycles; deeper trees are refused. */
const maxTagDepth = 64;

export interface TagSnapshot {
  id: string;
  name: string;
  color: number | null;
  parentId: string | null;
  deleted: boolean;
  revision: number;
}

export type TagResult = ActionResult & { tag: TagSnapshot };

interface TagFieldsInput {
  name: string;
  color?: number | null;
  parentId?: string | null;
}

export async function createTag(
  deps: NotesDeps,
  context: CommandContext,
  input: { userId: string } & TagFieldsInput,
): Promise<TagResult> {
  checkUser(input.userId);
  const fields = { name: input.name, color: input.color ?? null, parentId: input.parentId ?? null };
  return create(deps, context, input.userId, fields, false);
}

/** Absent fields keep their value; null clears the colour / moves the tag to the top level. */
export async function updateTag(
  deps: NotesDeps,
  context: CommandContext,
  input: { userId: string; tagId: string; expectedRevision?: number } & Partial<TagFieldsInput>,
): Promise<TagResult> {
  const { userId, tagId, expectedRevision, ...fields } = input;
  checkUser(userId);
  checkId(tagId, 'tag');
  if (fields.name !== undefined) {
    const clash = await findTagByName(deps.readStore, userId, fields.name);
    if (clash && clash.id !== tagId)
      throw new AlreadyExists(`a tag named "${clash.name}" already exists`);
  }
  const parent = fields.parentId ? await lookupParent(deps, userId, fields.parentId) : null;
  return send(deps, context, userId, tagId, {
    type: 'UpdateTag',
    data: { ...fields, parent, expectedRevision },
  });
}

/** Soft delete: notes keep the tag id; the tag leaves lists and name lookups. */
export async function deleteTag(
  deps: NotesDeps,
  context: CommandContext,
  input: { userId: string; tagId: string; expectedRevision?: number },
): Promise<TagResult> {
  checkUser(input.userId);
  checkId(input.tagId, 'tag');
  return send(deps, context, input.userId, input.tagId, {
    type: 'DeleteTag',
    data: { expectedRevision: input.expectedRevision },
  });
}

/** Tag ids for names, in order, without duplicates; unknown names become new tags. */
export async function ensureTags(
  deps: NotesDeps,
  context: CommandContext,
  input: { userId: string; names: readonly string[] },
): Promise<{ tagIds: string[]; position: bigint | null }> {
  const seen = new Map<string, string>();
  let position: bigint | null = null;
  for (const name of input.names) {
    const key = tagNameKey(name);
    if (seen.has(key)) continue;
    const fields = { name, color: null, parentId: null };
    const result = await create(deps, context, input.userId, fields, true);
    seen.set(key, result.tag.id);
    position = latest(position, result.position);
  }
  return { tagIds: [...seen.values()], position };
}

/** What the user's tag of that id is: active, deleted or absent (another user's tag is absent). */
export async function tagStatus(
  deps: NotesDeps,
  userId: string,
  tagId: string,
): Promise<TagStatus> {
  if (!isEntityId(tagId)) return 'absent';
  const { state } = await load(deps, userId, tagId);
  return state.status;
}

function snapshot(state: TagState): TagSnapshot {
  if (state.status === 'absent') throw new NotFound('tag not found');
  return {
    id: state.tagId,
    ...state.fields,
    deleted: state.status === 'deleted',
    revision: state.revision,
  };
}

function load(deps: NotesDeps, userId: string, tagId: string) {
  return deps.commandHandler.load(tagStreamId(userId, tagId), tagDecider);
}

async function send(
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

/** The parent's status and its ancestors (nearest first), for the decider's parent rules. */
async function lookupParent(
  deps: NotesDeps,
  userId: string,
  parentId: string,
): Promise<ParentLookup> {
  if (!isEntityId(parentId)) return { status: 'absent', ancestorIds: [] };
  const { state } = await load(deps, userId, parentId);
  if (state.status === 'absent') return { status: 'absent', ancestorIds: [] };
  const ancestorIds: string[] = [];
  let next = state.fields.parentId;
  while (next !== null && !ancestorIds.includes(next) && next !== parentId) {
    if (ancestorIds.length >= maxTagDepth) {
      throw new InvalidArgument(`tags nest at most ${maxTagDepth} levels deep`);
    }
    ancestorIds.push(next);
    const ancestor = (await load(deps, userId, next)).state;
    next = ancestor.status === 'absent' ? null : ancestor.fields.parentId;
  }
  return { status: state.status, ancestorIds };
}

/** Create a tag named `name`; `reuse` answers with an existing same-named tag instead of 409. */
function create(
  deps: NotesDeps,
  context: CommandContext,
  userId: string,
  fields: { name: string; color: number | null; parentId: string | null },
  reuse: boolean,
): Promise<TagResult> {
  // looked up once, when the first attempt is made, and reused by a second one
  let parent: Promise<ParentLookup | null> | undefined;
  const lookup = () =>
    fields.parentId === null ? Promise.resolve(null) : lookupParent(deps, userId, fields.parentId);
  return createNamed(
    context,
    {
      kind: 'tag',
      userId,
      name: fields.name,
      keyOf: tagNameKey,
      findByName: (name) => findTagByName(deps.readStore, userId, name),
      async load(tagId) {
        const { state, revision } = await load(deps, userId, tagId);
        return {
          liveName: state.status === 'active' ? state.fields.name : null,
          answer: () => ({ tag: snapshot(state), revision, position: null, replayed: false }),
        };
      },
      async create(tagId) {
        parent ??= lookup();
        const data = { tagId, userId, ...fields, parent: await parent };
        return send(deps, context, userId, tagId, { type: 'CreateTag', data });
      },
    },
    reuse,
  );
}
