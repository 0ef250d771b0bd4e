/**
 * Tag actions: create, update (rename, recolour, move), soft delete, and `ensureTags`, which
 * turns the tag names of a note into tag ids, creating the unknown ones.
 *
 * Names are unique per user among active tags (case and surrounding space ignored), because
 * notes name their tags. The read model answers "is this name taken" quickly but may lag a
 * concurrent request, so a tag created for a name first tries an id derived from (user, name):
 * two concurrent creates of one name meet on the same stream, and the loser reuses the winner.
 * Only when that stream holds another tag (renamed or deleted since) does it take a fresh id.
 */
import { isEntityId } from '../../../commands/note/index.js';
import {
  type ParentLookup,
  type TagState,
  tagDecider,
  tagNameKey,
  tagStreamId,
} from '../../../commands/tag/index.js';
import { AlreadyExists, InvalidArgument, NotFound } from '../../../commands/shared/errors.js';
import { findTagByName } from '../../../projections/tags/queries.js';
import {
  createTagInput,
  parseInput,
  type CreateTagInput,
  type UpdateTagInput,
  updateTagInput,
} from './input.js';
import {
  type ActionResult,
  type CommandContext,
  checkId,
  checkUser,
  derivedId,
  newId,
  type NotesActionDeps,
} from './support.js';

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

function snapshot(state: TagState): TagSnapshot {
  if (state.status === 'none') throw new NotFound('tag not found');
  return {
    id: state.tagId,
    ...state.fields,
    deleted: state.status === 'deleted',
    revision: state.revision,
  };
}

export function tagActions(deps: NotesActionDeps) {
  const { commands, readStore } = deps;
  const load = (userId: string, tagId: string) =>
    commands.load(tagStreamId(userId, tagId), tagDecider);

  /** The parent's status and its ancestors (nearest first), for the decider's parent rules. */
  async function lookupParent(userId: string, parentId: string): Promise<ParentLookup> {
    if (!isEntityId(parentId)) return { status: 'none', ancestorIds: [] };
    const { state } = await load(userId, parentId);
    if (state.status === 'none') return { status: 'none', ancestorIds: [] };
    const ancestorIds: string[] = [];
    let next = state.fields.parentId;
    while (next !== null && !ancestorIds.includes(next) && next !== parentId) {
      if (ancestorIds.length >= maxTagDepth) {
        throw new InvalidArgument(`tags nest at most ${maxTagDepth} levels deep`);
      }
      ancestorIds.push(next);
      const ancestor = (await load(userId, next)).state;
      next = ancestor.status === 'none' ? null : ancestor.fields.parentId;
    }
    return { status: state.status, ancestorIds };
  }

  /** Create a tag named `name`; `reuse` answers with an existing same-named tag instead of 409. */
  async function create(
    userId: string,
    fields: { name: string; color: number | null; parentId: string | null },
    context: CommandContext,
    reuse: boolean,
  ): Promise<TagResult> {
    const key = tagNameKey(fields.name);
    const existing = await findTagByName(readStore, userId, fields.name);
    if (existing) {
      if (!reuse) throw new AlreadyExists(`a tag named "${existing.name}" already exists`);
      const { state, revision } = await load(userId, existing.id);
      return { tag: snapshot(state), revision, position: null, replayed: false };
    }
    const parent = fields.parentId === null ? null : await lookupParent(userId, fields.parentId);
    const attempt = (tagId: string) =>
      commands.handle(
        tagStreamId(userId, tagId),
        tagDecider,
        { type: 'CreateTag', data: { tagId, userId, ...fields, parent } },
        context,
      );
    const namedId = derivedId('tag', userId, key);
    try {
      const result = await attempt(namedId);
      return {
        tag: snapshot(result.state),
        revision: result.revision,
        position: result.position,
        replayed: result.replayed,
      };
    } catch (error) {
      if (!(error instanceof AlreadyExists)) throw error;
    }
    const { state, revision } = await load(userId, namedId);
    if (state.status === 'active' && tagNameKey(state.fields.name) === key) {
      if (!reuse) throw new AlreadyExists(`a tag named "${state.fields.name}" already exists`);
      return { tag: snapshot(state), revision, position: null, replayed: false };
    }
    const result = await attempt(newId(context, 'tag', userId, key));
    return {
      tag: snapshot(result.state),
      revision: result.revision,
      position: result.position,
      replayed: result.replayed,
    };
  }

  return {
    async createTag(
      request: { userId: string } & CreateTagInput,
      context: CommandContext,
    ): Promise<TagResult> {
      checkUser(request.userId);
      const input = parseInput(createTagInput, request);
      return create(
        request.userId,
        { name: input.name, color: input.color ?? null, parentId: input.parentId ?? null },
        context,
        false,
      );
    },

    async updateTag(
      request: { userId: string; tagId: string; expectedRevision?: number } & UpdateTagInput,
      context: CommandContext,
    ): Promise<TagResult> {
      const { userId, tagId, expectedRevision } = request;
      checkUser(userId);
      checkId(tagId, 'tag');
      const input = parseInput(updateTagInput, request);
      if (input.name !== undefined) {
        const clash = await findTagByName(readStore, userId, input.name);
        if (clash && clash.id !== tagId)
          throw new AlreadyExists(`a tag named "${clash.name}" already exists`);
      }
      const parent = input.parentId ? await lookupParent(userId, input.parentId) : null;
      const result = await commands.handle(
        tagStreamId(userId, tagId),
        tagDecider,
        { type: 'UpdateTag', data: { ...input, parent, expectedRevision } },
        context,
      );
      return {
        tag: snapshot(result.state),
        revision: result.revision,
        position: result.position,
        replayed: result.replayed,
      };
    },

    /** Soft delete: notes keep the tag id; the tag leaves lists and name lookups. */
    async deleteTag(
      request: { userId: string; tagId: string; expectedRevision?: number },
      context: CommandContext,
    ): Promise<TagResult> {
      checkUser(request.userId);
      checkId(request.tagId, 'tag');
      const result = await commands.handle(
        tagStreamId(request.userId, request.tagId),
        tagDecider,
        { type: 'DeleteTag', data: { expectedRevision: request.expectedRevision } },
        context,
      );
      return {
        tag: snapshot(result.state),
        revision: result.revision,
        position: result.position,
        replayed: result.replayed,
      };
    },

    /** Tag ids for names, in order, without duplicates; unknown names become new tags. */
    async ensureTags(
      userId: string,
      names: readonly string[],
      context: CommandContext,
    ): Promise<{ tagIds: string[]; position: bigint | null }> {
      const seen = new Map<string, string>();
      let position: bigint | null = null;
      for (const name of names) {
        const key = tagNameKey(name);
        if (seen.has(key)) continue;
        const result = await create(userId, { name, color: null, parentId: null }, context, true);
        seen.set(key, result.tag.id);
        if (result.position !== null && (position === null || result.position > position))
          position = result.position;
      }
      return { tagIds: [...seen.values()], position };
    },

    /** Does this active tag exist for the user? (Tags of other users are never seen.) */
    async tagExists(userId: string, tagId: string): Promise<boolean> {
      if (!isEntityId(tagId)) return false;
      const { state } = await load(userId, tagId);
      return state.status === 'active';
    },
  };
}
