/**
 * The feedback board as a runtime service: its read models, its semantic search (one per boot),
 * its HTTP app, and what runs with the projector role: the sweep of expired OAuth clients and the
 * merge recovery (items a crash left "merged into" a survivor that has not recorded them yet, and
 * items a survivor gave back in an unmerge that have not taken themselves back yet, are completed
 * once the items read model has caught up).
 */
import { feedbackProjectors } from '../../projections/feedback.js';
import type { ServiceContext, ServiceModule } from '../platform/service.js';
import { completePendingMerges, completePendingUnmerges } from './actions/index.js';
import { createFeedbackApp, type FeedbackApp } from './app.js';
import { announceFirstRun } from './first-run.js';
import { feedbackSearch, feedbackSearchHealth, startFeedbackSearch } from './search/index.js';
import { grantHolder, startClientSweep } from '../auth/index.js';
import { createWebhooks, type Webhooks, type WebhooksOptions } from '../webhooks/index.js';
import { FEEDBACK_OAUTH_PREFIX } from './auth/settings.js';

export interface FeedbackServiceOptions {
  /** ms since the epoch; tests pass a controllable clock */
  now?: () => number;
  validateResponses?: boolean;
  /** receives the built app (tests reach the registry, the auth server) */
  onApp?: (app: FeedbackApp) => void;
  /** outbound webhooks: the retry clock, a resolver, lease timings (tests) */
  webhooks?: WebhooksOptions;
  /** how often expired OAuth clients are swept (tests; default a minute) */
  clientSweepEveryMs?: number;
}

export function createFeedbackService(options: FeedbackServiceOptions = {}): ServiceModule {
  const now = options.now ?? (() => Date.now());
  return {
    name: 'feedback',
    port: (config) => config.FEEDBACK_PORT,
    baseUrl: (config) => config.FEEDBACK_BASE_URL,
    boot({ config, logger, embedder }) {
      const search = feedbackSearch(config, logger, embedder);
      // where the API listens, once it does; a webhooks-only process knows only FEEDBACK_BASE_URL
      // (HOST and FEEDBACK_PORT there are not where anyone reaches the API: no guessing)
      let listeningAt: string | undefined;
      const linkBases = () => {
        const api = listeningAt ?? config.FEEDBACK_BASE_URL;
        if (!api) return null;
        const trimmed = (url: string) => url.replace(/\/+$/, '');
        return { api: trimmed(api), board: trimmed(config.PUBLIC_BASE_URL ?? api) };
      };
      // built once the runtime context exists; the app and the worker share it
      let webhooks: Webhooks | undefined;
      // once per process, from whichever of createApp and startWorkers runs first (the `all`
      // role runs both): an API process reports the indexes it searches, as notes does
      let reportingSearch = false;
      const reportSearch = (ctx: ServiceContext) => {
        if (reportingSearch) return;
        reportingSearch = true;
        ctx.reportHealth('search', feedbackSearchHealth(ctx, search));
      };
      const webhooksOf = (ctx: ServiceContext) => {
        // a webhook an OAuth app set stops with the app's grant, however the grant ended
        webhooks ??= createWebhooks(ctx, {
          consentHeld: grantHolder(ctx.stores.readStore, FEEDBACK_OAUTH_PREFIX, now),
          linkBases,
          ...options.webhooks,
        });
        return webhooks;
      };
      return {
        // search reads the items and people documents, so its projectors come after them
        projectors: [...feedbackProjectors(), ...search.projectors()],
        async createApp(ctx, listening) {
          listeningAt = listening.baseUrl;
          reportSearch(ctx);
          const built = await createFeedbackApp(ctx, {
            baseUrl: listening.baseUrl,
            now,
            search,
            webhooks: webhooksOf(ctx),
            ...(options.validateResponses ? { validateResponses: true } : {}),
          });
          options.onApp?.(built);
          await announceFirstRun(
            ctx.stores.readStore,
            listening.baseUrl,
            (text) => ctx.logger.info(`\n${text}`),
            ctx.stores.readStore.adapter === 'mongodb',
          );
          return { app: built.app, onClientError: built.http.onClientError };
        },
        async startWorkers(ctx) {
          reportSearch(ctx);
          const indexing = await startFeedbackSearch(ctx, search);
          const stopRecovery = new AbortController();
          const recovery = recoverMerges(ctx, now, stopRecovery.signal);
          // here, not in the API: one process sweeps a store several API processes share
          const clients = startClientSweep({
            readStore: ctx.stores.readStore,
            prefix: FEEDBACK_OAUTH_PREFIX,
            now,
            warn: (line) => ctx.logger.warn(line),
            everyMs: options.clientSweepEveryMs,
          });
          return {
            async stop() {
              await clients.stop();
              stopRecovery.abort();
              await recovery;
              await indexing.stop();
            },
          };
        },
        startWebhooks: (ctx) => webhooksOf(ctx).startWorker(),
      };
    },
  };
}

/**
 * Runs in the background: start-up does not wait for the read models to catch up. It waits for
 * them however long past PROJECTION_WAIT_MS that takes (`caughtUpTo`, no request's timed wait):
 * the first start after an upgrade rebuilds read models for longer than a request waits, and
 * giving up then left interrupted merges undone until another restart. A stop ends the wait.
 */
async function recoverMerges(
  ctx: ServiceContext,
  now: () => number,
  stopped: AbortSignal,
): Promise<void> {
  const caughtUp = (position: bigint) => ctx.caughtUpTo(position, stopped);
  try {
    if (!(await caughtUp(await ctx.stores.eventStore.headPosition()))) return;
    const deps = {
      commandHandler: ctx.commandHandler,
      readStore: ctx.stores.readStore,
      eventStore: ctx.stores.eventStore,
    };
    const merges = await completePendingMerges(deps, { actor: null, now: now() });
    if (merges.position !== null && !(await caughtUp(merges.position))) return;
    if (merges.completed > 0)
      ctx.logger.info('completed interrupted merges', { completed: merges.completed });
    const unmerges = await completePendingUnmerges(deps, { actor: null, now: now() });
    if (unmerges.position !== null && !(await caughtUp(unmerges.position))) return;
    if (unmerges.completed > 0)
      ctx.logger.info('completed interrupted unmerges', { completed: unmerges.completed });
  } catch (error) {
    ctx.logger.error('merge recovery failed; it runs again at the next start', {
      error: (error as Error).message,
    });
  }
}

export const feedbackService: ServiceModule = createFeedbackService();
