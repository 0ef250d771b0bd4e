/** Resolve what operators type (e-mails, slugs, keys) to ids, with errors that name the input. */
import { NotFound } from '../../commands/shared/errors.js';
import { getProduct } from '../../projections/products/queries.js';
import type { UserDoc } from '../../projections/users/projector.js';
import { userByEmail } from '../../projections/users/queries.js';
import type { WorkspaceDoc } from '../../projections/workspaces/projector.js';
import { workspaceBySlug } from '../../projections/workspaces/queries.js';
import type { ReadStore } from '../readstore/types.js';

export async function requireUser(store: ReadStore, email: string): Promise<UserDoc> {
  const user = await userByEmail(store, email);
  if (!user) throw new NotFound(`no user with e-mail ${email} (create it with create-user)`);
  return user;
}

export async function requireWorkspace(store: ReadStore, slug: string): Promise<WorkspaceDoc> {
  const workspace = await workspaceBySlug(store, slug);
  if (!workspace) throw new NotFound(`no workspace with slug ${slug}`);
  return workspace;
}

export async function requireProduct(
  store: ReadStore,
  workspace: WorkspaceDoc,
  key: string,
): Promise<void> {
  const product = await getProduct(store, { workspaceId: workspace.workspaceId, key });
  if (!product) throw new NotFound(`no product ${key} in workspace ${workspace.slug}`);
}
