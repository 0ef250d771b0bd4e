/**
 * The feedback board's hosted MCP server at `{base}/mcp` (spec: "The same routes are exposed as
 * tools on a hosted MCP server, and each operation id below is also the MCP tool name"): every
 * operation of the registry is a tool; a `service.public` token is shown only the two it may
 * call. Each request authenticates with the same three credentials as REST — personal API token,
 * OAuth access token (issued for the service or for the MCP endpoint), ID token — and every
 * tool call goes through the registry's authorize step, so membership, roles, scope and
 * attribution (`api:<client name>`, agent replies) are exactly those of REST.
 */
import type { Router } from 'express';
import { membershipsOfUser, workspaceById } from '../../projections/workspaces/queries.js';
import {
  type AuthorizationServer,
  endpointChallenge,
  endpointResourceMetadata,
  type TrustedIssuer,
  Unauthenticated,
} from '../auth/index.js';
import type { HttpLogger, ServiceHttp } from '../http/registry.js';
import { feedbackEnvelope } from '../http/registry.js';
import { hostedTools } from '../mcp/hosted.js';
import { MCP_PATH, mcpEndpoint } from '../mcp/http.js';
import type { PendingEvents } from '../platform/catch-up.js';
import type { ReadStore } from '../readstore/types.js';
import { createAuthenticator } from './auth/authenticate.js';
import { callerReaches, PUBLIC_SCOPE } from './auth/authorize.js';
import { requestCaller } from './auth/http-auth.js';
import type { Caller, FeedbackTypes } from './http/types.js';

/**
 * What an assistant needs before its first call: no operation lists the caller's workspaces, so
 * where a `slug` comes from; and how the paged tools page.
 */
export const FEEDBACK_MCP_INSTRUCTIONS = [
  'Tools of the feedback board: one per REST operation, named by its operation id. Workspace tools take the workspace `slug` (and `key`, `itemKey` where the route has them) as arguments beside the query and body fields.',
  "No tool lists workspaces: those you belonged to when this session began are named in these instructions (unless your token is limited to public products). A product's public board is at `<board host>/<slug>/<key>`, so its address gives both; an item key such as `APP-7` gives them too: resolve_item finds it in every workspace you belong to and answers its `slug`. Otherwise ask the user for the workspace slug; list_products lists a workspace's products and their keys.",
  'A paged tool answers `nextCursor`: pass it back unchanged as `cursor`, with the same filters, for the next page; null means there is no more (list_events takes it as `after`, and its feed never ends).',
  'A failed call answers isError with the `{error, code}` envelope of the REST API.',
].join(' ');

/** The most workspaces the instructions name; a member of more is told how many it left out. */
const NAMED_WORKSPACES = 50;

/**
 * The caller's workspaces, told at `initialize` (src/mcp/http.ts `instructionsFor`): what a
 * `slug` can be, read live like every membership. A `service.public` token is told nothing (it
 * reaches public products only, and memberships never widen it); an integration credential
 * reaches its one workspace.
 */
async function workspacesOf(readStore: ReadStore, caller: Caller): Promise<string | undefined> {
  if (caller.scopes.includes(PUBLIC_SCOPE)) return undefined;
  if (caller.integration) {
    const workspace = await workspaceById(readStore, caller.integration.workspaceId);
    return workspace ? `This credential reaches one workspace: \`${workspace.slug}\`.` : undefined;
  }
  const memberships = await membershipsOfUser(readStore, caller.userId);
  if (memberships.length === 0) {
    return 'You belong to no workspace: only submit_feedback, get_public_roadmap and list_public_changelog reach anything, on public products.';
  }
  const named = memberships.slice(0, NAMED_WORKSPACES).map((m) => `\`${m.slug}\` (${m.role})`);
  const left = memberships.length - named.length;
  const more = left > 0 ? ` and ${left} more (ask the user for the slug)` : '';
  return `Your workspaces when this session began (slug and your role): ${named.join(', ')}${more}.`;
}

export function feedbackMcp(deps: {
  http: ServiceHttp<FeedbackTypes>;
  auth: AuthorizationServer;
  readStore: ReadStore;
  trustedIssuers: TrustedIssuer[];
  now(): number;
  /** the credential and membership events the read models lack (http-auth.ts `requestCaller`) */
  pending(): Promise<PendingEvents>;
  baseUrl: string;
  /** MCP_ALLOWED_ORIGINS: browser origins allowed beside the service's own */
  allowedOrigins?: readonly string[];
  logger: HttpLogger;
}): Router {
  const { auth, baseUrl } = deps;
  // the REST authenticator, with access tokens for the service or for this endpoint
  const authenticate = createAuthenticator({
    readStore: deps.readStore,
    auth: {
      verifyAccessToken: auth.verifierAt(MCP_PATH),
      verifyIdToken: (token, extra) => auth.verifyIdToken(token, extra),
      ownIdTokenIssuers: auth.ownIdTokenIssuers,
    },
    trustedIssuers: deps.trustedIssuers,
    now: deps.now,
  });
  const envelope = feedbackEnvelope();
  const tools = hostedTools<FeedbackTypes>({
    http: deps.http,
    // a tool the caller's credential can never call is not shown (scope, account routes)
    shows: (op, caller) => callerReaches(op, caller),
    envelope,
    logger: deps.logger,
  });
  const callerOf = requestCaller(authenticate, deps.pending, baseUrl);
  return mcpEndpoint<FeedbackTypes['principal']>({
    info: { name: 'feedback-board', version: '1.0.0', instructions: FEEDBACK_MCP_INSTRUCTIONS },
    authenticate: (req) => callerOf(req),
    recheck: (req) => callerOf(req, true),
    challenge: (req, error) =>
      endpointChallenge({
        base: baseUrl,
        path: MCP_PATH,
        ...(!req.headers.authorization
          ? {}
          : error instanceof Unauthenticated
            ? { error: error.oauthError, scheme: error.scheme }
            : { error: 'invalid_token' }),
      }),
    // an MCP client asks for what is listed here: offline_access keeps it connected; the full
    // maker surface needs no scope, and `service.public` would narrow it to two tools
    resourceMetadata: () =>
      endpointResourceMetadata({
        base: baseUrl,
        path: MCP_PATH,
        scopes: ['offline_access'],
        name: 'Feedback board MCP server',
      }),
    catalogFor: tools.catalogFor,
    toolNames: new Set(tools.tools.map((t) => t.tool.name)),
    instructionsFor: (caller) => workspacesOf(deps.readStore, caller),
    describeCaller: (caller) => `${caller.userId} ${caller.via ?? caller.credential}`,
    allowedOrigins: [new URL(baseUrl).origin, ...(deps.allowedOrigins ?? [])],
    envelope,
    logger: deps.logger,
  });
}
