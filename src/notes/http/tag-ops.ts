/** Tags: list, create, get, PUT, DELETE (soft). If-Match works on PUT and DELETE as on notes. */
import { z } from 'zod';
import { etagFor } from '../../http/registry.js';
import {
  commandContext,
  defineNotesOp,
  expectedRevision,
  type NotesHttpDeps,
  settle,
} from './context.js';
import { presentTag } from './present.js';
import {
  IdParam,
  paletteDescription,
  Tag,
  TagCreateBody,
  TagList,
  TagUpdateBody,
} from './schemas.js';

export function tagOperations(deps: NotesHttpDeps) {
  const { actions, queries } = deps;
  const currentRevision = (userId: string, tagId: string) => async () =>
    (await queries.getTag(userId, tagId)).revision;

  async function tagAnswer(userId: string, tagId: string, status = 200) {
    const tag = await queries.getTag(userId, tagId);
    return { status, body: presentTag(tag), headers: { ETag: etagFor(tag.revision) } };
  }

  const listTags = defineNotesOp({
    id: 'list_tags',
    method: 'get',
    path: '/v1/tags',
    summary: 'List your tags',
    tags: ['Tags'],
    query: z.object({
      includeDeleted: z
        .boolean()
        .default(false)
        .meta({ description: 'also list soft-deleted tags' }),
    }),
    response: TagList,
    errors: [400, 401, 403],
    auth: 'bearer',
    extraDescription: 'By name. Nesting: a tag’s parentId names its parent tag.',
    async handler(ctx) {
      const tags = await queries.listTags(ctx.principal.userId, {
        includeDeleted: ctx.query.includeDeleted,
      });
      return { body: { tags: tags.map(presentTag) } };
    },
  });

  const createTag = defineNotesOp({
    id: 'create_tag',
    method: 'post',
    path: '/v1/tags',
    summary: 'Create a tag',
    tags: ['Tags'],
    body: TagCreateBody,
    response: Tag,
    successStatus: 201,
    errors: [400, 401, 403, 404, 409, 413, 415],
    auth: 'bearer',
    extraDescription: `Names are unique among your active tags (case ignored; 409 otherwise). parentId must be one of your active tags. color: ${paletteDescription}`,
    async handler(ctx) {
      const { userId } = ctx.principal;
      const result = await actions.createTag({ userId, ...ctx.body }, commandContext(deps, ctx));
      await settle(deps, result.position);
      const answer = await tagAnswer(userId, result.tag.id, 201);
      return { ...answer, headers: { ...answer.headers, Location: `/v1/tags/${result.tag.id}` } };
    },
  });

  const getTag = defineNotesOp({
    id: 'get_tag',
    method: 'get',
    path: '/v1/tags/{id}',
    summary: 'Read one tag',
    tags: ['Tags'],
    params: IdParam,
    response: Tag,
    responseDescription: 'The tag (also when soft-deleted: deletedAt is set); ETag header',
    errors: [401, 403, 404],
    auth: 'bearer',
    handler: async (ctx) => tagAnswer(ctx.principal.userId, ctx.params.id),
  });

  const updateTag = defineNotesOp({
    id: 'update_tag',
    method: 'put',
    path: '/v1/tags/{id}',
    summary: 'Update a tag (rename, recolour, move)',
    tags: ['Tags'],
    params: IdParam,
    body: TagUpdateBody,
    response: Tag,
    errors: [400, 401, 403, 404, 409, 412, 413, 415],
    auth: 'bearer',
    extraDescription:
      'Absent fields keep their value. Moving a tag under one of its own descendants is refused (400). Honours If-Match.',
    async handler(ctx) {
      const { userId } = ctx.principal;
      const tagId = ctx.params.id;
      const expected = await expectedRevision(ctx.ifMatch, currentRevision(userId, tagId), 'tag');
      const result = await actions.updateTag(
        { userId, tagId, expectedRevision: expected, ...ctx.body },
        commandContext(deps, ctx),
      );
      await settle(deps, result.position);
      return tagAnswer(userId, tagId);
    },
  });

  const deleteTag = defineNotesOp({
    id: 'delete_tag',
    method: 'delete',
    path: '/v1/tags/{id}',
    summary: 'Soft-delete a tag',
    tags: ['Tags'],
    params: IdParam,
    successStatus: 204,
    responseDescription: 'Deleted; no body',
    errors: [401, 403, 404, 409, 412],
    auth: 'bearer',
    extraDescription:
      'Notes that carry the tag keep it (existing associations are left alone). Honours If-Match.',
    async handler(ctx) {
      const { userId } = ctx.principal;
      const tagId = ctx.params.id;
      const expected = await expectedRevision(ctx.ifMatch, currentRevision(userId, tagId), 'tag');
      const result = await actions.deleteTag(
        { userId, tagId, expectedRevision: expected },
        commandContext(deps, ctx),
      );
      return { position: result.position };
    },
  });

  return [listTags, createTag, getTag, updateTag, deleteTag];
}
