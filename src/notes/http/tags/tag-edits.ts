/** update_tag (rename, recolour, move) and delete_tag (soft), honouring If-Match as notes do. */
import { deleteTag, updateTag } from '../../actions/index.js';
import { TagIdParam, Tag, TagUpdateBody } from '../schemas.js';
import {
  commandContext,
  defineNotesOp,
  type NotesHttpDeps,
  type NotesOperation,
} from '../types.js';
import { tagAnswer, tagWrite } from './shared.js';

export function tagEditOperations(deps: NotesHttpDeps): NotesOperation[] {
  const updateTagOp = defineNotesOp({
    id: 'update_tag',
    versioned: true,
    method: 'put',
    path: '/v1/tags/{id}',
    summary: 'Update a tag (rename, recolour, move)',
    tags: ['Tags'],
    params: TagIdParam,
    body: TagUpdateBody,
    response: Tag,
    errors: [400, 401, 403, 404, 409, 412, 413, 415],
    auth: 'bearer',
    extraDescription:
      'Absent fields keep their value. Moving a tag under one of its own descendants is refused (400). Honours If-Match.',
    async handler(ctx) {
      const context = commandContext(deps, ctx.principal, ctx);
      const { position, tag: left } = await tagWrite(deps, ctx, (tag) =>
        updateTag(deps, context, { ...tag, ...ctx.body }),
      );
      const { userId } = ctx.principal;
      return { position, readBack: () => tagAnswer(deps, userId, ctx.params.id, left.revision) };
    },
  });

  const deleteTagOp = defineNotesOp({
    id: 'delete_tag',
    versioned: true,
    method: 'delete',
    path: '/v1/tags/{id}',
    summary: 'Soft-delete a tag',
    tags: ['Tags'],
    params: TagIdParam,
    successStatus: 204,
    responseDescription: 'Deleted; no body',
    errors: [401, 403, 404, 409, 412],
    auth: 'bearer',
    extraDescription:
      'Notes that carry the tag keep it (existing associations are left alone). Its child tags move up to its parent (the top level when it had none). Honours If-Match.',
    async handler(ctx) {
      const context = commandContext(deps, ctx.principal, ctx);
      const { position } = await tagWrite(deps, ctx, (tag) => deleteTag(deps, context, tag));
      return { position };
    },
  });

  return [updateTagOp, deleteTagOp];
}
