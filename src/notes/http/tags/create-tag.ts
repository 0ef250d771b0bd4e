/** create_tag: names are unique among the caller's active tags; the parent must be one of them. */
import { createTag } from '../../actions/index.js';
import { created } from '../resource.js';
import { paletteDescription, Tag, TagCreateBody } from '../schemas.js';
import {
  commandContext,
  defineNotesOp,
  type NotesHttpDeps,
  type NotesOperation,
} from '../types.js';
import { tagAnswer } from './shared.js';

export function createTagOperation(deps: NotesHttpDeps): NotesOperation {
  return defineNotesOp({
    id: 'create_tag',
    versioned: true,
    createsInCollection: true,
    method: 'post',
    path: '/v1/tags',
    summary: 'Create a tag',
    tags: ['Tags'],
    body: TagCreateBody,
    response: Tag,
    successStatus: 201,
    errors: [400, 401, 403, 404, 409, 412, 413, 415],
    auth: 'bearer',
    extraDescription: `Names are unique among your active tags (case ignored; 409 otherwise). A user has at most 1,000 active tags by default (the server setting NOTES_TAGS_PER_USER; 409 past it, deleted tags do not count). parentId must be one of your active tags. color: ${paletteDescription}`,
    async handler(ctx) {
      const { userId } = ctx.principal;
      const context = commandContext(deps, ctx.principal, ctx);
      const { tag, position } = await createTag(deps, context, { userId, ...ctx.body });
      return {
        position,
        readBack: async () =>
          created(await tagAnswer(deps, userId, tag.id, tag.revision), `/v1/tags/${tag.id}`),
      };
    },
  });
}
