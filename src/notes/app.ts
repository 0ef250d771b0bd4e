/**
 * The notes service's Express app: health, the OAuth 2.0 authorization server (discovery,
 * /oauth/*, sign-in pages) at the root, the /v1 API with its docs, and the `{error}` envelope for
 * everything else. Both hosts (NOTES_BASE_URL and NOTES_ALT_BASE_URL) are served by this one app.
 */
import type { RequestListener } from 'node:http';
import express from 'express';
import { createCursorCodec } from '../http/registry.js';
import { healthRouter } from '../platform/health.js';
import type { Listening, ServiceContext } from '../platform/service.js';
import { createNotesActions } from './actions/index.js';
import { createNotesAuth, notesBaseUrls } from './http/auth.js';
import type { NotesSearchPort } from './http/context.js';
import { createNotesHttp } from './http/index.js';
import { createPresenter } from './http/present.js';
import type { Places } from './places.js';
import { createNotesQueries } from './queries.js';

export interface NotesAppDeps {
  places: Places;
  search: NotesSearchPort;
  /** check every answer against its schema (tests) */
  validateResponses?: boolean;
}

export async function createNotesApp(
  ctx: ServiceContext,
  listening: Listening,
  deps: NotesAppDeps,
): Promise<RequestListener> {
  const { readStore, eventStore } = ctx.stores;
  const queries = createNotesQueries({ readStore, events: eventStore });
  const actions = createNotesActions({ commands: ctx.commands, readStore, places: deps.places });
  const auth = await createNotesAuth(ctx, listening);
  const { primary, alt } = notesBaseUrls(ctx.config, listening);

  const http = createNotesHttp(
    {
      actions,
      queries,
      presenter: createPresenter(queries),
      search: deps.search,
      cursors: createCursorCodec(ctx.secret),
      waitFor: (position) => ctx.waitFor(position),
      clock: () => Date.now(),
    },
    {
      authenticate: auth.authenticate,
      challenge: auth.challenge,
      servers: [primary, ...(alt ? [alt] : [])],
      issuer: primary,
      logger: ctx.logger,
      validateResponses: deps.validateResponses,
    },
  );

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(healthRouter(ctx.health));
  app.use(http.router);
  // at the root: oidc-provider reads req.baseUrl as its mount path
  app.use(auth.server.router);
  app.use(http.fallback);
  return http.serveWith(app);
}
