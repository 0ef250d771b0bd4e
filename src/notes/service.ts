/**
 * The notes service as the runtime runs it: its own port (NOTES_PORT) and base URL
 * (NOTES_BASE_URL, plus NOTES_ALT_BASE_URL), its read models plus the search projector, its
 * Express app, the background search indexer and the sweep of expired OAuth clients.
 *
 * Search state (the embedder, the vector index, the indexer) lives per boot of the service.
 */
import { startClientSweep } from '../auth/index.js';
import type { ServiceContext, ServiceModule } from '../platform/service.js';
import { NOTES_OAUTH_PREFIX } from './auth.js';
import { createNotesApp, type NotesApp } from './app.js';
import { createGazetteer, type Places } from './places.js';
import { notesProjectors } from '../../projections/notes.js';
import { createNotesSearch, type NotesSearch } from './search/notes-search.js';
import { scopeCacheBounds } from '../search/scope-caches.js';

export interface NotesServiceOptions {
  /** gazetteer override (tests) */
  places?: Places;
  /** check every answer against its response schema (tests; costs time) */
  validateResponses?: boolean;
  /** indexer batching wait in ms (default 100) */
  searchDelayMs?: number;
  /** receives the built app (tests reach the registry, the auth server) */
  onApp?: (app: NotesApp) => void;
  /** how often expired OAuth clients are swept (tests; default a minute) */
  clientSweepEveryMs?: number;
}

export interface NotesServiceModule extends ServiceModule {
  /** resolves once every note written so far is searchable (tests; the latest boot) */
  whenSearchIdle(): Promise<void>;
}

export function notesService(options: NotesServiceOptions = {}): NotesServiceModule {
  const places = options.places ?? createGazetteer();
  let latest: NotesSearch | undefined;

  return {
    name: 'notes',
    port: (config) => config.NOTES_PORT,
    baseUrl: (config) => config.NOTES_BASE_URL,
    boot({ config, logger, embedder }) {
      const search = createNotesSearch({
        logger,
        embedder,
        delayMs: options.searchDelayMs,
        cacheBounds: scopeCacheBounds(config.SEARCH_CACHE_SCOPES, config.SEARCH_CACHE_MIB),
      });
      latest = search;
      // once per process: the `all` role runs both createApp and startWorkers, and the health
      // output merges every report under a key, so a second one would only ask twice
      let reportingHealth = false;
      const reportHealth = (ctx: ServiceContext) => {
        if (reportingHealth) return;
        reportingHealth = true;
        ctx.reportHealth('search', () => search.health());
      };
      return {
        projectors: [...notesProjectors(), search.projector()],
        async createApp(ctx, listening) {
          // In an API-only process the projector never runs here: another process embeds.
          search.bind(ctx.stores.readStore, { foreignWriter: true });
          search.warm();
          reportHealth(ctx);
          const built = await createNotesApp(ctx, listening, {
            places,
            search,
            validateResponses: options.validateResponses,
          });
          options.onApp?.(built);
          return { app: built.app, onClientError: built.http.onClientError };
        },
        async startWorkers(ctx) {
          search.bind(ctx.stores.readStore);
          search.startIndexing();
          reportHealth(ctx);
          // here, not in the API: one process sweeps a store several API processes share
          const clients = startClientSweep({
            readStore: ctx.stores.readStore,
            prefix: NOTES_OAUTH_PREFIX,
            now: () => Date.now(),
            warn: (line) => ctx.logger.warn(line),
            everyMs: options.clientSweepEveryMs,
          });
          return {
            async stop() {
              await clients.stop();
              await search.stop();
            },
          };
        },
      };
    },
    whenSearchIdle: () => latest?.whenIdle() ?? Promise.resolve(),
  };
}
