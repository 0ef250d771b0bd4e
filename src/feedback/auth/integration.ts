/**
 * Workspace integration credentials (`rfi_…`, spec "Attribution labels": `integration:<connection
 * name>`). The credential belongs to a workspace, not to a person:
 *  - authentication hashes the value and looks it up live, so a revocation applies to the very
 *    next request; the caller it yields is the integration itself (its id is the actor);
 *  - it reaches only its own workspace's routes (any other workspace, and the public routes of
 *    another workspace, answer the same 404 as an unknown one), with a member's rights: never an
 *    admin operation (403), never the personal account routes under /v1/me (403).
 */
import { NotFound, PermissionDenied } from '../../../commands/shared/errors.js';
import { integrationByHash } from '../../../projections/integrations/queries.js';
import { workspaceById } from '../../../projections/workspaces/queries.js';
import { Unauthenticated } from '../../auth/index.js';
import type { ErasedContext, Operation } from '../../http/registry.js';
import type { ReadStore } from '../../readstore/types.js';
import { hashIntegrationCredential, INTEGRATION_PREFIX } from '../actions/integrations.js';
import { NO_BOARD } from '../http/public/board.js';
import type { Caller, FeedbackAccess, FeedbackTypes } from '../http/types.js';

export function isIntegrationCredential(token: string): boolean {
  return token.startsWith(INTEGRATION_PREFIX);
}

/** a revoked integration credential's refusal: the read models' or a revocation they lack yet */
export const INTEGRATION_REVOKED = 'integration credential revoked';

export async function integrationCaller(store: ReadStore, token: string): Promise<Caller> {
  const doc = await integrationByHash(store, hashIntegrationCredential(token));
  if (!doc) throw new Unauthenticated('unknown integration credential');
  if (doc.revoked) throw new Unauthenticated(INTEGRATION_REVOKED);
  return {
    userId: doc.id,
    credential: 'integration',
    via: `integration:${doc.name}`,
    credentialId: doc.id,
    scopes: [],
    integration: { workspaceId: doc.workspaceId, name: doc.name },
  };
}

const ACCOUNT_PATH = /^\/v1\/me(\/|$)/;

/** Whether an integration credential may call the operation at all (neither admin nor /v1/me). */
export function integrationReaches(op: Pick<Operation<FeedbackTypes>, 'path' | 'meta'>): boolean {
  return !ACCOUNT_PATH.test(op.path) && !op.meta.admin;
}

export async function authorizeIntegration(
  store: ReadStore,
  op: Operation<FeedbackTypes>,
  caller: Caller & { integration: NonNullable<Caller['integration']> },
  ctx: ErasedContext<FeedbackTypes>,
  workspaceNotFound: string,
): Promise<FeedbackAccess | undefined> {
  if (ACCOUNT_PATH.test(op.path)) {
    throw new PermissionDenied(
      'an integration credential belongs to a workspace, not a person: it cannot use /v1/me',
    );
  }
  const meta = op.meta;
  if (!meta.workspace && !meta.admin && !meta.publicScope) return undefined;
  const missing = new NotFound(meta.publicScope ? NO_BOARD : workspaceNotFound);
  const slug = ctx.params.slug;
  if (typeof slug !== 'string') throw missing;
  const workspace = await workspaceById(store, caller.integration.workspaceId);
  if (!workspace || workspace.slug !== slug) throw missing;
  if (meta.admin) {
    throw new PermissionDenied(
      `${op.id} requires the workspace admin role; an integration credential has a member's rights`,
    );
  }
  if (!meta.workspace) return undefined;
  return { workspaceId: workspace.workspaceId, slug, role: 'member' };
}
