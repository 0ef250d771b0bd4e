/**
 * The feedback board's Express app: the OAuth/OIDC authorization server (discovery, /oauth/*,
 * sign-in pages, protected-resource metadata) mounted at the root, the operation registry under
 * /v1 with its OpenAPI document and /docs, the hosted MCP server at /mcp, the health routes, and
 * the envelope for everything else.
 */
import type { Express } from 'express';
import { callerBudgets } from '../limits/caller-budgets.js';
import { type AuthorizationServer, createAuthorizationServer } from '../auth/index.js';
import {
  createCursorCodec,
  createServiceHttp,
  feedbackEnvelope,
  type ServiceHttp,
} from '../http/registry.js';
import { nothingPending } from '../platform/catch-up.js';
import { apiSecurityHeaders, pageSecurityHeaders } from '../platform/security-headers.js';
import type { ServiceContext } from '../platform/service.js';
import { serviceApp } from '../platform/service-app.js';
import { createAccountsPort, USER_ID_PURPOSE } from './accounts.js';
import { idKeyFor } from '../platform/id-keys.js';
import { createPersonIds, PERSON_ID_PURPOSE } from './actions/index.js';
import { publicBoard } from './board/index.js';
import { captureLimitsFrom, createCaptureGuard } from './capture/guard.js';
import { createItemTimelines } from './activity/timeline.js';
import { createAuthenticator } from './auth/authenticate.js';
import { createAuthorizer, PUBLIC_SCOPE, WORKSPACE_NOT_FOUND } from './auth/authorize.js';
import { CREDENTIAL_STREAMS, feedbackChallenge, httpAuthenticate } from './auth/http-auth.js';
import { feedbackAuthOptions } from './auth/settings.js';
import { trustedIssuersFrom } from './auth/trusted-issuers.js';
import { feedbackOperations } from './http/operations.js';
import { feedbackMcp } from './mcp.js';
import type { FeedbackSearch } from './search/index.js';
import type { Webhooks } from '../webhooks/index.js';
import { outboundWebhooks } from './http/webhooks/index.js';
import { NO_BOARD } from './http/public/board.js';
import type { FeedbackOperation, FeedbackTypes } from './http/types.js';

export interface FeedbackAppOptions {
  baseUrl: string;
  /** ms since the epoch; tests pass a controllable clock */
  now?: () => number;
  /** check every answer against its response schema (tests) */
  validateResponses?: boolean;
  /** the boot's semantic search (its projectors run with the read models) */
  search: FeedbackSearch;
  /** the boot's outbound webhooks (the worker runs beside the app in the embedded default) */
  webhooks: Webhooks;
}

export interface FeedbackApp {
  /** serves every request of the feedback service, operations included */
  app: Express;
  http: ServiceHttp<FeedbackTypes>;
  auth: AuthorizationServer;
}

export async function createFeedbackApp(
  ctx: ServiceContext,
  options: FeedbackAppOptions,
): Promise<FeedbackApp> {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const now = options.now ?? (() => Date.now());
  const { readStore } = ctx.stores;
  const accounts = createAccountsPort({
    commandHandler: ctx.commandHandler,
    readStore,
    waitFor: ctx.waitFor,
    now,
    userIdKey: idKeyFor(ctx.secret, USER_ID_PURPOSE),
  });
  const auth = await createAuthorizationServer(
    feedbackAuthOptions({
      config: ctx.config,
      baseUrl,
      readStore,
      accounts,
      now,
      logger: ctx.logger,
    }),
  );

  const guard = createCaptureGuard({ readStore, now, limits: captureLimitsFrom(ctx.config) });
  const personIds = createPersonIds({
    commandHandler: ctx.commandHandler,
    readStore,
    personIdKey: idKeyFor(ctx.secret, PERSON_ID_PURPOSE),
  });
  const operations = feedbackOperations({
    config: ctx.config,
    commandHandler: ctx.commandHandler,
    readStore,
    cursors: createCursorCodec(`feedback-cursors:${ctx.secret}`),
    now,
    logger: ctx.logger,
    apps: auth,
    catchUp: ctx.catchUp,
    search: options.search,
    eventStore: ctx.stores.eventStore,
    timelines: createItemTimelines({ eventStore: ctx.stores.eventStore }),
    webhooks: options.webhooks,
    guard,
    personIds,
  });
  const trustedIssuers = trustedIssuersFrom(ctx.config.TRUSTED_ID_TOKEN_ISSUERS);
  const authenticate = createAuthenticator({ readStore, auth, trustedIssuers, now });
  // REST and MCP share one read of what the read models lack: each request turn reads the log
  // once for both
  const credentialsPending = ctx.pendingOn(CREDENTIAL_STREAMS) ?? nothingPending;
  const httpAuthenticated = httpAuthenticate(authenticate, credentialsPending, baseUrl);
  const https = baseUrl.startsWith('https:');
  const http = createServiceHttp<FeedbackTypes>({
    title: 'Feedback board',
    pageHeaders: pageSecurityHeaders({ https }),
    version: '1.0.0',
    description:
      'Workspaces, products, feedback items, replies, people, follow-up, changelog, outbound webhooks and the event feed. Every operation takes `Authorization: Bearer <token>`: a personal API token (`rft_service_…`), an OAuth access token from this service, an identity-provider ID token, or a workspace integration credential (`rfi_…`). No resource here carries an ETag: a request with an `If-Match` other than `*` is refused with 412 (`failed-precondition`), as no tag can match, and so is a write with `If-None-Match: *`, as what it writes to exists (a submission’s target is the product’s feedback, which does), unless it fails otherwise (a missing item answers 404; RFC 9110 §13.2.1); nothing is written. A read with `If-None-Match: *` answers 304 Not Modified without a body, as what it reads exists (§13.1.2). A search refused so spends none of the caller’s search budget; a spent budget answers 429 first.',
    operations,
    envelope: feedbackEnvelope(),
    authenticate: httpAuthenticated.authenticate,
    recheck: (req, op) => httpAuthenticated.recheck(req, op),
    challenge: feedbackChallenge((error, scope, scheme) =>
      auth.wwwAuthenticate(error, scope, scheme),
    ),
    authorize: createAuthorizer({ readStore }),
    throttle: callerBudgets({ readStore, now, config: ctx.config, service: 'feedback' }),
    waitFor: ctx.waitFor,
    unknownParam: notFoundMessage,
    describeCaller: (caller) => `${caller.userId} ${caller.via ?? caller.credential}`,
    validateResponses: options.validateResponses,
    openapiPath: '/v1/openapi.json',
    webhooks: outboundWebhooks(),
    docsPath: '/docs',
    servers: [{ url: baseUrl }],
    securitySchemes: {
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        description:
          'A personal API token (`rft_service_…`), an OAuth access token, an identity-provider ID token, or a workspace integration credential (`rfi_…`).',
      },
      oauth2: {
        type: 'oauth2',
        description:
          'Authorization code with PKCE (S256), public clients, open dynamic registration at /oauth/register.',
        flows: {
          authorizationCode: {
            authorizationUrl: `${baseUrl}/oauth/authorize`,
            tokenUrl: `${baseUrl}/oauth/token`,
            refreshUrl: `${baseUrl}/oauth/token`,
            scopes: {
              [PUBLIC_SCOPE]: 'only submit_feedback, get_public_roadmap and list_public_changelog',
              offline_access: 'a refresh token',
            },
          },
        },
      },
    },
    // an OAuth access token is refused (403) where only the maker's own credentials go
    security: (op): Record<string, string[]>[] =>
      op.meta.ownCredentials ? [{ bearerAuth: [] }] : [{ bearerAuth: [] }, { oauth2: [] }],
    logger: ctx.logger,
  });

  const app = serviceApp(ctx, {
    service: 'feedback',
    before: [apiSecurityHeaders({ https })],
    operations: http.middleware,
    routes: [
      // the board first: its pages are most of a public service's traffic, and a path that
      // cannot name a board (`/oauth/…`, `/mcp`, `/.well-known/…`) passes straight through
      publicBoard(ctx, {
        mail: auth.mail,
        search: options.search,
        guard,
        personIds,
        now,
        baseUrl,
      }),
      feedbackMcp({
        http,
        auth,
        readStore,
        trustedIssuers,
        now,
        pending: credentialsPending,
        baseUrl,
        allowedOrigins: ctx.config.MCP_ALLOWED_ORIGINS,
        logger: ctx.logger,
      }),
      auth.router,
    ],
    fallback: http.fallback,
  });
  return { app, http, auth };
}

const MISSING: Record<string, string> = {
  slug: WORKSPACE_NOT_FOUND,
  key: 'product not found',
  itemKey: 'item not found',
  personId: 'person not found',
  webhookId: 'webhook not found',
  deliveryId: 'delivery not found',
  integrationId: 'integration not found',
};

/**
 * A path parameter outside its format names nothing: the answer is the 404 of a missing one
 * (a malformed slug is an unknown workspace), and on the public surface the one 404 it has.
 */
function notFoundMessage(name: string, op: FeedbackOperation): string {
  if (op.meta.publicScope) return NO_BOARD;
  return MISSING[name] ?? 'not found';
}
