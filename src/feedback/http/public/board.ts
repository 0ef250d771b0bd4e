/**
 * Which product a caller reaches through the public routes (submit_feedback, get_public_roadmap).
 * Spec "Product visibility": a private product's page, roadmap and changelog "answer 404 to
 * everyone outside the workspace; submissions are refused". Members reach their own private
 * product, except with a `service.public` token: membership never widens such a token.
 */
import { getProduct } from '../../../../projections/products/index.js';
import { membershipBySlug, workspaceBySlug } from '../../../../projections/workspaces/queries.js';
import type { ReadStore } from '../../../readstore/types.js';
import { PUBLIC_SCOPE } from '../../auth/authorize.js';
import type { Caller } from '../types.js';

/** the one answer for an unknown slug, an unknown key and a private product seen from outside */
export const NO_BOARD = 'no public product at this address';

export interface Board {
  workspaceId: string;
  productName: string;
  /** the caller is a member of the workspace and the token is not `service.public`-scoped */
  member: boolean;
}

export async function boardFor(
  store: ReadStore,
  caller: Caller,
  slug: string,
  key: string,
): Promise<Board | null> {
  const workspace = await workspaceBySlug(store, slug);
  if (!workspace) return null;
  const { workspaceId } = workspace;
  const product = await getProduct(store, { workspaceId, key });
  if (!product) return null;
  const member =
    !caller.scopes.includes(PUBLIC_SCOPE) &&
    (caller.integration
      ? caller.integration.workspaceId === workspaceId
      : (await membershipBySlug(store, { slug, userId: caller.userId })) !== null);
  if (product.visibility === 'private' && !member) return null;
  return { workspaceId, productName: product.name, member };
}
