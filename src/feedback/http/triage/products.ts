/** list_products and update_product. */
import { z } from 'zod';
import { NotFound } from '../../../../commands/shared/errors.js';
import {
  listProducts,
  productDocId,
  productsOf,
  toProduct,
} from '../../../../projections/products/index.js';
import { updateProduct } from '../../actions/index.js';
import { Product, ProductParams, Visibility, WorkspaceParams } from '../schemas.js';
import { defineFeedbackOp, type FeedbackHttpDeps, type FeedbackOperation } from '../types.js';
import { contextOf, workspaceOf } from './shared.js';

const DECLARED = [400, 401, 403, 404] as const;

export function productOperations(deps: FeedbackHttpDeps): FeedbackOperation[] {
  const listProductsOp = defineFeedbackOp({
    id: 'list_products',
    method: 'get',
    path: '/v1/workspaces/{slug}/products',
    summary: 'List the products of a workspace',
    tags: ['Products'],
    params: WorkspaceParams,
    response: z.object({
      items: z.array(Product),
      nextCursor: z.null().meta({ description: 'always null: everything is in one response' }),
    }),
    errors: DECLARED,
    auth: 'bearer',
    meta: { workspace: true },
    extraDescription: 'Everything in one response, ordered by key.',
    async handler(ctx) {
      const { workspaceId } = workspaceOf(ctx.access);
      return { body: { items: await listProducts(deps.readStore, workspaceId), nextCursor: null } };
    },
  });

  const updateProductOp = defineFeedbackOp({
    id: 'update_product',
    honoursIfMatch: 'commands',
    method: 'patch',
    path: '/v1/workspaces/{slug}/products/{key}',
    summary: 'Rename a product or change its visibility',
    tags: ['Products'],
    params: ProductParams,
    body: z
      .object({ name: z.string().min(1).max(200).optional(), visibility: Visibility.optional() })
      .strict(),
    response: z.object({ product: Product }),
    errors: DECLARED,
    auth: 'bearer',
    meta: { workspace: true, admin: true },
    extraDescription:
      'Partial: only the fields sent ' +
      'change; an empty object changes nothing and answers the product as it is. The key cannot ' +
      'be changed and nothing is ever deleted. Making a product private hides its public page, ' +
      'roadmap and changelog from everyone outside the workspace and refuses submissions.',
    async handler(ctx) {
      const { workspaceId } = workspaceOf(ctx.access);
      const { key } = ctx.params;
      const { position } = await updateProduct(deps, contextOf(deps, ctx), {
        workspaceId,
        key,
        ...ctx.body,
      });
      return {
        position,
        async readBack() {
          const doc = await productsOf(deps.readStore).findOne({
            _id: productDocId(workspaceId, key),
          });
          if (!doc) throw new NotFound('product not found');
          return { body: { product: toProduct(doc) } };
        },
      };
    },
  });

  return [listProductsOp, updateProductOp];
}
