/**
 * The feedback board's Express app: the OAuth/OIDC authorization server (discovery, /oauth/*,
 * sign-in pages, protected-resource metadata) mounted at the root, the operation registry under
 * /v1 with its OpenAPI document and /docs, the health routes, and the envelope for everything
 * else.
 */
import type { RequestListener } from 'node:http';
import express, { type Express } from 'express';
import { type AuthorizationServer, createAuthorizationServer } from '../auth/index.js';
import {
  createCursorCodec,
  createServiceHttp,
  feedbackEnvelope,
  type ServiceHttp,
} from '../http/registry.js';
import { healthRouter } from '../platform/health.js';
import type { ServiceContext } from '../platform/service.js';
import { createAccountsPort } from './accounts.js';
import { createAuthenticator } from './auth/authenticate.js';
import { createAuthorizer, PUBLIC_SCOPE } from './auth/authorize.js';
import { feedbackChallenge, httpAuthenticate } from './auth/http-auth.js';
import { feedbackAuthOptions } from './auth/settings.js';
import { trustedIssuersFrom } from './auth/trusted-issuers.js';
import { feedbackOperations } from './http/operations.js';
import type { FeedbackSearch } from './search/index.js';
import type { FeedbackTypes } from './http/types.js';

export interface FeedbackAppOptions {
  baseUrl: string;
  /** ms since the epoch; tests pass a controllable clock */
  now?: () => number;
  /** check every answer against its response schema (tests) */
  validateResponses?: boolean;
  /** the boot's semantic search (its projectors run with the read models) */
  search: FeedbackSearch;
}

export interface FeedbackApp {
  app: Express;
  /** the server's request listener: operations served before Express (see dispatch.ts), then `app` */
  listener: RequestListener;
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
    commands: ctx.commands,
    readStore,
    waitFor: ctx.waitFor,
    now,
  });
  const auth = await createAuthorizationServer(
    feedbackAuthOptions({
      config: ctx.config,
      baseUrl,
      readStore,
      accounts,
      now,
      log: (line) => ctx.logger.info(line),
    }),
  );

  const operations = feedbackOperations({
    config: ctx.config,
    commands: ctx.commands,
    readStore,
    cursors: createCursorCodec(`feedback-cursors:${ctx.secret}`),
    now,
    waitFor: ctx.waitFor,
    logger: ctx.logger,
    apps: auth,
    search: options.search,
  });
  const authenticate = createAuthenticator({
    readStore,
    auth,
    trustedIssuers: trustedIssuersFrom(ctx.config.TRUSTED_ID_TOKEN_ISSUERS),
    now,
  });
  const http = createServiceHttp<FeedbackTypes>({
    title: 'Feedback board',
    version: '1.0.0',
    description:
      'Workspaces, products, feedback items, replies, people, follow-up and changelog. Every operation takes `Authorization: Bearer <token>`: a personal API token (`rft_service_…`), an OAuth access token from this service, or an identity-provider ID token.',
    operations,
    envelope: feedbackEnvelope(),
    authenticate: httpAuthenticate(authenticate),
    challenge: feedbackChallenge((error) => auth.wwwAuthenticate(error)),
    authorize: createAuthorizer({ readStore }),
    waitFor: ctx.waitFor,
    validateResponses: options.validateResponses,
    openapiPath: '/v1/openapi.json',
    docsPath: '/docs',
    servers: [{ url: baseUrl }],
    securitySchemes: {
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        description:
          'A personal API token (`rft_service_…`), an OAuth access token, or an identity-provider ID token.',
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
              [PUBLIC_SCOPE]: 'only submit_feedback and get_public_roadmap',
              offline_access: 'a refresh token',
            },
          },
        },
      },
    },
    security: [{ bearerAuth: [] }, { oauth2: [] }],
    logger: ctx.logger,
  });

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(http.router);
  app.use(healthRouter(ctx.health));
  app.use(auth.router);
  app.use(http.fallback);
  return { app, listener: http.serveWith(app), http, auth };
}
