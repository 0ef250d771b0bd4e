/**
 * The process's health report, what `/readyz` answers and `/metrics` reads: readiness (a refused
 * append, a stalled projector), the role, the stores, the projections' checkpoints and lag, and
 * what components report under their own keys (`search`, `webhooks`, `projectorLease`). One per
 * process, built before a standby projector waits for its lease, so it answers during the wait.
 */
import { checkpointId, type Projector } from '../../projections/shared/projector.js';
import { type ProjectorCheckpoint, projectorLags } from '../read/projector-lag.js';
import { mergeReports } from './health.js';
import { observeProjections, observeSearch, observeWebhooks } from './health-metrics.js';
import type { Metrics } from './metrics.js';
import { createReadiness, type Readiness } from './readiness.js';
import type { HealthReport } from './service.js';
import type { Stores } from './stores.js';

export interface HealthReporter {
  health(): Promise<HealthReport>;
  readiness: Readiness;
  /** a component's report under `key`; several under one key are merged */
  report(key: string, value: () => unknown): void;
  /** a component's reason the process is not ready (`reasons`, 503), undefined while it is */
  unready(reason: () => string | undefined): void;
}

export function createHealthReporter(options: {
  role: string;
  stores: Stores;
  metrics: Metrics;
  stallMs: number;
  projections: () => Promise<HealthReport['projections']>;
}): HealthReporter {
  const { role, stores, metrics } = options;
  const projections = boundedProjections(options.projections);
  const extras = new Map<string, (() => unknown)[]>();
  const unready: (() => string | undefined)[] = [];
  const readiness = createReadiness({ stallMs: options.stallMs });

  async function extra(key: string): Promise<unknown> {
    let merged: unknown;
    for (const value of extras.get(key) ?? []) merged = mergeReports(merged, await value());
    return merged;
  }

  observeProjections(metrics, projections);
  observeSearch(metrics, () => extra('search'));
  observeWebhooks(metrics, () => extra('webhooks'));

  return {
    readiness,
    report(key, value) {
      extras.set(key, [...(extras.get(key) ?? []), value]);
    },
    unready(reason) {
      unready.push(reason);
    },
    async health() {
      const status = await projections();
      const reasons = [
        ...readiness.reasons(status),
        ...unready.map((reason) => reason()).filter((reason) => reason !== undefined),
      ];
      const report: HealthReport = {
        status: reasons.length === 0 ? 'ok' : 'degraded',
        ...(reasons.length > 0 ? { reasons } : {}),
        role,
        stores: stores.describe(),
        projections: status,
      };
      for (const key of extras.keys()) report[key] = await extra(key);
      return report;
    },
  };
}

/** How long a health check waits for the event store to say where its head is. */
export const HEALTH_DEADLINE_MS = 2_000;

/**
 * The projections' status as probes and scrapes read it: one read of the event store at a time,
 * shared by every probe that arrives meanwhile (probes every second must not stack up reads of
 * the log's end), and a deadline, so /readyz answers 503 saying why instead of hanging when the
 * event store is slow (split-deployment audit: /readyz and /metrics hung for minutes).
 */
export function boundedProjections(
  read: () => Promise<HealthReport['projections']>,
  deadlineMs = HEALTH_DEADLINE_MS,
): () => Promise<HealthReport['projections']> {
  let inFlight: Promise<HealthReport['projections']> | undefined;
  return () => {
    inFlight ??= read().finally(() => {
      inFlight = undefined;
    });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new Error(
              `the event store did not tell its head within ${deadlineMs / 1000} s (projection lag unknown)`,
            ),
          ),
        deadlineMs,
      );
    });
    return Promise.race([inFlight, late]).finally(() => clearTimeout(timer));
  };
}

/** The projectors' checkpoints in the read store (no engine in this process). */
export async function storedCheckpoints(
  stores: Stores,
  projectors: readonly Projector[],
): Promise<ProjectorCheckpoint[]> {
  const stored = await stores.readStore.checkpoints();
  return projectors.map((p) => ({ name: p.name, checkpoint: stored.get(checkpointId(p)) ?? 0n }));
}

/** The projections as the checkpoints in the read store show them (no engine in this process). */
export async function checkpointStatus(stores: Stores, projectors: readonly Projector[]) {
  return projectorLags(stores.eventStore, await storedCheckpoints(stores, projectors));
}
