/** list_tags and get_tag. Nesting: a tag's parentId names its parent tag. */
import { z } from 'zod';
import { presentTag } from '../present.js';
import { TagIdParam, Tag, TagList } from '../schemas.js';
import { defineNotesOp, type NotesHttpDeps, type NotesOperation } from '../types.js';
import { tagAnswer } from './shared.js';

export function listTagsOperation(deps: NotesHttpDeps): NotesOperation {
  return defineNotesOp({
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
    extraDescription:
      'By name, all in one answer: a user has at most NOTES_TAGS_PER_USER active tags (1,000 by default). Nesting: a tag’s parentId names its parent tag.',
    async handler(ctx) {
      const tags = await deps.queries.listTags(ctx.principal.userId, {
        includeDeleted: ctx.query.includeDeleted,
      });
      return { body: { tags: tags.map(presentTag) } };
    },
  });
}

export function getTagOperation(deps: NotesHttpDeps): NotesOperation {
  return defineNotesOp({
    id: 'get_tag',
    versioned: true,
    resource: 'tag',
    method: 'get',
    path: '/v1/tags/{id}',
    summary: 'Read one tag',
    tags: ['Tags'],
    params: TagIdParam,
    response: Tag,
    responseDescription: 'The tag (also when soft-deleted: deletedAt is set); ETag header',
    errors: [401, 403, 404, 412],
    auth: 'bearer',
    handler: async (ctx) => tagAnswer(deps, ctx.principal.userId, ctx.params.id),
  });
}
