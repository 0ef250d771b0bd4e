/** What the people, close-the-loop and synthesis operations share. */
import { NotFound } from '../../../../commands/shared/errors.js';
import { getProduct } from '../../../../projections/products/queries.js';
import type { ReadStore } from '../../../readstore/types.js';
import type { FeedbackSearch } from '../../search/search.js';
import type { FeedbackAccess, FeedbackHttpDeps } from '../types.js';

export interface FollowupHttpDeps extends FeedbackHttpDeps {
  /**
   * Semantic search (src/feedback/search). The service module creates it once per boot, lists
   * its projectors with the read models and passes it here; see src/feedback/search/index.ts.
   */
  search: FeedbackSearch;
}

/** Workspace routes run only after authorize checked live membership; this is what it found. */
export function accessOf(access: FeedbackAccess | undefined): FeedbackAccess {
  // authorize always hands FeedbackAccess to `meta.workspace` routes; a gap here is a wiring bug
  if (!access) throw new TypeError('workspace route reached its handler without a membership');
  return access;
}

/** A product route answers 404 for a key the workspace does not have. */
export async function requireProduct(
  store: ReadStore,
  workspaceId: string,
  key: string,
): Promise<void> {
  if (!(await getProduct(store, { workspaceId, key }))) throw new NotFound('product not found');
}
