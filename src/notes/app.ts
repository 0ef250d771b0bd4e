/**
 * The notes service's Express app (src/platform/service-app.ts): health, metrics, the OAuth 2.0 authorization server (discovery,
 * /oauth/*, sign-in pages) at the root, the /v1 API from the operation registry with its OpenAPI
 * document at /docs/json and the interactive reference at /docs, the hosted MCP server at /mcp,
 * and the `{error}` envelope for everything else. Both hosts (NOTES_BASE_URL and NOTES_ALT_BASE_URL) are served by this one app.
 */
import type { Express } from 'express';
import type { AuthorizationServer } from '../auth/index.js';
import { callerBudgets } from '../limits/caller-budgets.js';
import {
  createCursorCodec,
  createServiceHttp,
  notesEnvelope,
  type ServiceHttp,
} from '../http/registry.js';
import { apiSecurityHeaders, pageSecurityHeaders } from '../platform/security-headers.js';
import type { Listening, ServiceContext } from '../platform/service.js';
import { serviceApp } from '../platform/service-app.js';
import { createNotesAuth, notesBaseUrls } from './auth.js';
import { notesOperations } from './http/operations.js';
import { createPresenter } from './http/present.js';
import { notesMcp } from './mcp.js';
import type { NotesTypes } from './http/types.js';
import type { NotesSearchPort } from './search/notes-search.js';
import type { Places } from './places.js';
import { createNotesQueries } from './queries.js';

const NOTES_OPENAPI_PATH = '/docs/json';
const NOTES_DOCS_PATH = '/docs';

export interface NotesAppOptions {
  places: Places;
  search: NotesSearchPort;
  /** check every answer against its schema (tests) */
  validateResponses?: boolean;
}

export interface NotesApp {
  /** serves every request of the notes service, operations included */
  app: Express;
  http: ServiceHttp<NotesTypes>;
  auth: AuthorizationServer;
}

const DESCRIPTION = `A user's notes, tags and devices. Every /v1 route needs \`Authorization: Bearer <access token>\` from this service's OAuth 2.0 server (authorization code + PKCE, scope \`notes\`; add \`offline_access\` for a refresh token). Discovery: \`/.well-known/oauth-authorization-server\`. Access is strictly per user: another user's note, tag or device answers exactly like a missing one (404). Errors are \`{"error": "<message>"}\` with the matching status. Writes accept \`Idempotency-Key\`; note, tag and device reads carry an \`ETag\` and honour \`If-Match\` as their writes do (412 naming the current ETag when it does not match; a weak tag never matches). The other operations (lists, search, sync, history, and the creates, whose target is the collection) carry no ETag: an \`If-Match\` other than \`*\` is refused with 412, as no tag can match, and so is a create with \`If-None-Match: *\`, as its collection exists, unless the request fails otherwise (a missing note answers 404; RFC 9110 §13.2.1). A read with \`If-None-Match: *\` answers 304 Not Modified without a body, as what it reads exists (§13.1.2). A search refused so spends none of the caller's search budget; a spent budget answers 429 first.`;

export async function createNotesApp(
  ctx: ServiceContext,
  listening: Listening,
  options: NotesAppOptions,
): Promise<NotesApp> {
  const { readStore, eventStore } = ctx.stores;
  const queries = createNotesQueries({ readStore, events: eventStore });
  const auth = await createNotesAuth(ctx, listening);
  const { primary, alt } = notesBaseUrls(ctx.config, listening);

  const operations = notesOperations({
    commandHandler: ctx.commandHandler,
    readStore,
    places: options.places,
    limits: {
      tagsPerUser: ctx.config.NOTES_TAGS_PER_USER,
      devicesPerUser: ctx.config.NOTES_DEVICES_PER_USER,
    },
    queries,
    presenter: createPresenter(
      queries,
      async (clientId) => (await auth.server.provider.Client.find(clientId))?.clientName ?? null,
    ),
    search: options.search,
    cursors: createCursorCodec(ctx.secret),
    now: () => Date.now(),
  });
  const httpLogger = {
    warn: (message: string, fields: Record<string, unknown>) => ctx.logger.warn(message, fields),
    error: (message: string, { error, ...fields }: Record<string, unknown>) =>
      ctx.logger.error(message, {
        ...fields,
        error: error instanceof Error ? { message: error.message, stack: error.stack } : error,
      }),
  };
  const https = primary.startsWith('https:');
  const http = createServiceHttp<NotesTypes>({
    title: 'Notes',
    pageHeaders: pageSecurityHeaders({ https }),
    version: '1.0.0',
    description: DESCRIPTION,
    operations,
    envelope: notesEnvelope(),
    authenticate: auth.authenticate,
    recheck: (req) => auth.recheck(req),
    challenge: auth.challenge,
    throttle: callerBudgets({
      readStore: ctx.stores.readStore,
      now: () => Date.now(),
      config: ctx.config,
      service: 'notes',
    }),
    waitFor: ctx.waitFor,
    describeCaller: (principal) => `${principal.userId} client:${principal.clientId}`,
    openapiPath: NOTES_OPENAPI_PATH,
    docsPath: NOTES_DOCS_PATH,
    servers: [primary, ...(alt ? [alt] : [])].map((url) => ({ url })),
    securitySchemes: {
      oauth2: {
        type: 'oauth2',
        flows: {
          authorizationCode: {
            authorizationUrl: `${primary}/oauth/authorize`,
            tokenUrl: `${primary}/oauth/token`,
            refreshUrl: `${primary}/oauth/token`,
            scopes: {
              notes: 'read and write your notes, tags and devices',
              offline_access: 'stay connected: get a refresh token',
            },
          },
        },
      },
      bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    },
    security: [{ oauth2: ['notes'] }, { bearerAuth: [] }],
    bodyLimit: '1mb',
    validateResponses: options.validateResponses,
    logger: httpLogger,
  });

  const app = serviceApp(ctx, {
    service: 'notes',
    before: [apiSecurityHeaders({ https })],
    operations: http.middleware,
    // at the root: oidc-provider reads req.baseUrl as its mount path
    routes: [
      notesMcp({ http, auth, allowedOrigins: ctx.config.MCP_ALLOWED_ORIGINS, logger: httpLogger }),
      auth.server.router,
    ],
    fallback: http.fallback,
  });
  return { app, http, auth: auth.server };
}
