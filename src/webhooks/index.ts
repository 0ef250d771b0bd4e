/**
 * The outbound webhooks of one service boot: what the operations need (the secret box, the
 * target policy, the event feed, a nudge for the worker) and the worker itself. Built once per
 * runtime, shared by the HTTP app and the worker when both run in the same process.
 */
import type { AppConsent } from './delivery/attempt.js';
import type { ServiceContext } from '../platform/service.js';
import { systemClock, type WebhookClock } from './clock.js';
import type { TargetPolicy } from './delivery/target.js';
import { deliveriesOf } from './delivery/records.js';
import { type FeedPage, type FeedQuery, readFeed } from './feed.js';
import { type Composer, createComposer, type LinkBases } from './messages/compose.js';
import { createSecretBox, type SecretBox } from './secrets.js';
import { WORKER_LEASE } from './worker/state.js';
import { createWebhookWorker, type WebhookWorker } from './worker/worker.js';

export interface WebhooksOptions {
  clock?: WebhookClock;
  /** host name resolution for target checks (tests point names at 127.0.0.1) */
  resolve?: (hostname: string) => Promise<string[]>;
  /** how long a target's name may take to resolve (target.ts RESOLVE_TIMEOUT_MS) */
  resolveTimeoutMs?: number;
  /** worker lease timings, real milliseconds */
  lease?: { leaseMs: number; renewMs: number };
  /** how often the worker looks for deliveries other processes made due, real ms (default 5 s) */
  pollMs?: number;
  /** whether an OAuth app still holds the user's grant (delivery/attempt.ts `consentHeld`) */
  consentHeld?: (consent: AppConsent) => Promise<boolean>;
  /** the origins of the messages' `links` (messages/compose.ts); none: no links */
  linkBases?: () => LinkBases | null;
}

export interface Webhooks {
  clock: WebhookClock;
  secrets: SecretBox;
  policy: TargetPolicy;
  /** whether an OAuth app still holds the user's grant; absent: no app sets webhooks here */
  consentHeld?: (consent: AppConsent) => Promise<boolean>;
  composer: Composer;
  feed(query: FeedQuery): Promise<FeedPage>;
  /** tell the worker, when it runs in this process, to look for due deliveries now */
  wake(): void;
  startWorker(): Promise<{ stop(): Promise<void> }>;
}

export function createWebhooks(ctx: ServiceContext, options: WebhooksOptions = {}): Webhooks {
  const { config, stores, logger } = ctx;
  const clock = options.clock ?? systemClock;
  const policy: TargetPolicy = {
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    ...(options.resolve ? { resolve: options.resolve } : {}),
    ...(options.resolveTimeoutMs ? { resolveTimeoutMs: options.resolveTimeoutMs } : {}),
  };
  const secrets = createSecretBox(ctx.secret);
  const composerDeps = {
    eventStore: stores.eventStore,
    readStore: stores.readStore,
    ...(options.linkBases ? { linkBases: options.linkBases } : {}),
  };
  const composer = createComposer(composerDeps);
  let worker: WebhookWorker | undefined;

  return {
    clock,
    secrets,
    policy,
    ...(options.consentHeld ? { consentHeld: options.consentHeld } : {}),
    composer,
    feed: (query) =>
      readFeed({ eventStore: stores.eventStore, composer, waitFor: ctx.waitFor }, query),
    wake() {
      worker?.wake();
    },
    async startWorker() {
      if (policy.allowPrivate) {
        logger.warn(
          'WEBHOOK_ALLOW_PRIVATE_TARGETS=true: webhooks may deliver to loopback and private addresses (development only)',
        );
      }
      const started = createWebhookWorker({
        eventStore: stores.eventStore,
        readStore: stores.readStore,
        commandHandler: ctx.commandHandler,
        waitFor: ctx.waitFor,
        composer: createComposer(composerDeps),
        secrets,
        policy,
        clock,
        concurrency: config.WEBHOOK_CONCURRENCY,
        maxInFlight: config.WEBHOOK_MAX_IN_FLIGHT,
        logger,
        lease: stores.lease(WORKER_LEASE.collection, WORKER_LEASE.id),
        onAttempt: (outcome, seconds) => ctx.metrics.webhookAttempts.observe({ outcome }, seconds),
        consentHeld: options.consentHeld,
        ...options.lease,
        ...(options.pollMs ? { pollMs: options.pollMs } : {}),
      });
      await started.start();
      worker = started;
      ctx.reportHealth('webhooks', () => started.status());
      // read from the shared delivery log at scrape time (indexed by status)
      ctx.metrics.observe(
        'webhook_deliveries_pending',
        'deliveries waiting for an attempt: new, failed and waiting for their retry, or held while their webhook is disabled',
        () => deliveriesOf(stores.readStore).countDocuments({ status: 'pending' }),
      );
      return {
        async stop() {
          worker = undefined;
          await started.stop();
        },
      };
    },
  };
}

export type { WebhookClock } from './clock.js';
