/**
 * The feedback board's authorization policy, applied to every operation after its input was
 * validated (src/http/lifecycle.ts: the `authorize` step, after `validate`):
 *
 *  1. scope: a `service.public` token may call only operations with `meta.publicScope`
 *     (spec rule 2: 403 permission-denied + `WWW-Authenticate: Bearer error="insufficient_scope"`,
 *     even for a workspace admin — checked before membership, so it reveals nothing either);
 *  2. workspace routes re-read the caller's live membership by slug on every request; a
 *     non-member and an unknown slug get the identical 404 ("workspace not found");
 *  3. `meta.admin` routes need the `admin` role (403 for a member);
 *  4. `meta.ownCredentials` routes (/v1/me: personal API tokens, connected apps; workspace
 *     integration credentials) take only the maker's
 *     own credentials — a personal API token or an identity-provider ID token (what the
 *     first-party app holds). An OAuth access token is a third-party app's: a personal token it
 *     minted would outlive its disconnection (spec: personal tokens are "Created in product
 *     settings"), and it has no business listing or revoking the user's other credentials. An
 *     integration credential belongs to a workspace, not a person (integration.ts). 403.
 * Scopes never widen roles: a token's scope is only ever a further restriction.
 */
import { NotFound, PermissionDenied } from '../../../commands/shared/errors.js';
import { membershipBySlug } from '../../../projections/workspaces/queries.js';
import type { ErasedContext, Operation } from '../../http/registry.js';
import { withResponseHeaders } from '../../http/registry.js';
import type { ReadStore } from '../../readstore/types.js';
import type {
  Caller,
  CredentialKind,
  FeedbackAccess,
  FeedbackMeta,
  FeedbackTypes,
} from '../http/types.js';
import { authorizeIntegration, integrationReaches } from './integration.js';

export const PUBLIC_SCOPE = 'service.public';
export const INSUFFICIENT_SCOPE = 'Bearer error="insufficient_scope"';
export const WORKSPACE_NOT_FOUND = 'workspace not found';

/** Whether the caller's token scope reaches the operation (spec rule 2). */
export function scopeReaches(meta: FeedbackMeta, caller: Caller): boolean {
  return !caller.scopes.includes(PUBLIC_SCOPE) || meta.publicScope === true;
}

/** Throws when the caller's token scope does not reach the operation (spec rule 2). */
export function assertScope(meta: FeedbackMeta, caller: Caller): void {
  if (!scopeReaches(meta, caller)) {
    throw withResponseHeaders(
      new PermissionDenied(
        'a token with the service.public scope may only call submit_feedback, get_public_roadmap and list_public_changelog',
      ),
      { 'WWW-Authenticate': INSUFFICIENT_SCOPE },
    );
  }
}

/** The credentials that are the maker's own, as opposed to an app's or a workspace's. */
const OWN_CREDENTIALS: readonly CredentialKind[] = ['pat', 'id-token'];

/** Whether the caller's credential reaches an account route (rule 4); other routes: always. */
export function credentialReaches(meta: FeedbackMeta, caller: Caller): boolean {
  return !meta.ownCredentials || OWN_CREDENTIALS.includes(caller.credential);
}

/** Whether the caller may call the operation at all, before membership (the MCP catalog). */
export function callerReaches(
  op: Pick<Operation<FeedbackTypes>, 'path' | 'meta'>,
  caller: Caller,
): boolean {
  if (caller.integration) return scopeReaches(op.meta, caller) && integrationReaches(op);
  return scopeReaches(op.meta, caller) && credentialReaches(op.meta, caller);
}

export function createAuthorizer(deps: { readStore: ReadStore }) {
  return async function authorize(
    op: Operation<FeedbackTypes>,
    caller: Caller | undefined,
    ctx: ErasedContext<FeedbackTypes>,
  ): Promise<FeedbackAccess | undefined> {
    if (!caller) return undefined; // auth: 'none' operations
    const meta = op.meta;
    assertScope(meta, caller);
    if (caller.integration) {
      const integration = { ...caller, integration: caller.integration };
      return authorizeIntegration(deps.readStore, op, integration, ctx, WORKSPACE_NOT_FOUND);
    }
    if (!credentialReaches(meta, caller)) {
      throw new PermissionDenied(
        `${op.id} takes only your own credentials (a personal API token or the board's ID token), not an OAuth app's access token`,
      );
    }
    if (!meta.workspace && !meta.admin) return undefined;
    const slug = ctx.params.slug;
    if (typeof slug !== 'string') throw new NotFound(WORKSPACE_NOT_FOUND);
    const membership = await membershipBySlug(deps.readStore, { slug, userId: caller.userId });
    if (!membership) throw new NotFound(WORKSPACE_NOT_FOUND);
    if (meta.admin && membership.role !== 'admin') {
      throw new PermissionDenied(`${op.id} requires the workspace admin role`);
    }
    return { workspaceId: membership.workspace.workspaceId, slug, role: membership.role };
  };
}

/** The sentence appended to an operation's OpenAPI description for its access rule. */
export function accessNote(meta: FeedbackMeta): string {
  if (meta.publicScope) {
    return 'Any valid bearer token, including one with the `service.public` scope; no workspace membership needed.';
  }
  const scope =
    'A `service.public`-scoped token gets 403 with `WWW-Authenticate: Bearer error="insufficient_scope"`.';
  const own = meta.ownCredentials
    ? "Only with your own credentials: a personal API token or the first-party app's ID token. " +
      'An OAuth access token (any scope, `service.public` included) or a workspace integration ' +
      'credential gets 403 `permission-denied`, so a connected app can neither mint a credential ' +
      'that outlives its disconnection nor manage your credentials.'
    : '';
  if (own && meta.admin) return `${own} Requires the workspace **admin** role (a member gets 403).`;
  if (own) return own;
  if (meta.admin) return `Requires the workspace **admin** role (a member gets 403). ${scope}`;
  if (meta.workspace)
    return `Any member of the workspace (a non-member gets 404, as for an unknown workspace). ${scope}`;
  return scope;
}
