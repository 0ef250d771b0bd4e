/**
 * Gauges read from the health output when /metrics is scraped: projector lag and checkpoints
 * (from the projections' status alone, not the whole report), and the texts each search index
 * has waiting for the embedder — the embedder's queue — and holds embedded, and the scopes and
 * bytes of vectors this process holds in memory (from what the services report under `search`,
 * the figures /readyz shows); whether the webhook worker
 * delivers (holds the delivery lease) and its checkpoint, from its report under `webhooks`.
 */
import { LAG_CAP, lagEvents } from '../read/projector-lag.js';
import type { Metrics } from './metrics.js';
import type { HealthReport } from './service.js';

export function observeProjections(
  metrics: Metrics,
  status: () => Promise<HealthReport['projections']>,
): void {
  // both gauges of one scrape share one status call (health-report.ts: one read at a time);
  // when the event store does not answer in time the gauges are left out of this scrape
  const read = async (field: 'lag' | 'checkpoint') => {
    const known = await status().catch(() => undefined);
    if (!known) return {};
    const { projectors } = known;
    const value = (p: (typeof projectors)[number]) =>
      field === 'lag' ? lagEvents(p.lag) : Number(p.checkpoint);
    return Object.fromEntries(projectors.map((p) => [p.name, value(p)]));
  };
  // The checkpoint as a double: exact on the embedded store; on KurrentDB (commit << 64 |
  // prepare) it keeps the commit position exactly (value / 2^64, the log's byte offset) and loses
  // only the prepare part, which tells apart events of one append. Enough to see a projector move
  // or stop; how far behind is the lag gauge, and /readyz has the exact checkpoint.
  const gauges = [
    [
      'projector_lag_events',
      `events of the log a projector has not applied yet (at most ${LAG_CAP})`,
      'lag',
    ],
    [
      'projector_checkpoint_position',
      'the last log position a projector applied (KurrentDB: commit position x 2^64)',
      'checkpoint',
    ],
  ] as const;
  for (const [name, help, field] of gauges)
    metrics.observe(name, help, () => read(field), 'projector');
}

interface SearchReport {
  /** per index, once the embedder is ready (src/search/indexer.ts `IndexProgress`) */
  indexes?: Record<string, Record<SearchFigure, number>>;
}

type SearchFigure = 'indexed' | 'pending' | 'loadedScopes' | 'loadedVectorBytes';

export function observeSearch(metrics: Metrics, report: () => Promise<unknown>): void {
  const read = async (field: SearchFigure) => {
    const indexes = ((await report()) as SearchReport | undefined)?.indexes ?? {};
    return Object.fromEntries(Object.entries(indexes).map(([name, i]) => [name, i[field]]));
  };
  const gauges = [
    ['search_pending_texts', 'texts waiting for the embedder (its queue), per index', 'pending'],
    ['search_indexed_texts', 'texts embedded and searchable by meaning, per index', 'indexed'],
    [
      'search_loaded_scopes',
      'scopes (workspaces, notes users) whose search indexes this process holds in memory, per index',
      'loadedScopes',
    ],
    [
      'search_loaded_vector_bytes',
      'bytes of vectors this process holds in memory, per index',
      'loadedVectorBytes',
    ],
  ] as const;
  for (const [name, help, field] of gauges) metrics.observe(name, help, () => read(field), 'index');
}

interface WebhooksReport {
  /** src/webhooks/worker/worker.ts `status()` */
  delivering: boolean;
  checkpoint: string;
}

/** No series in a process without the worker (an API process). */
export function observeWebhooks(metrics: Metrics, report: () => Promise<unknown>): void {
  const read = async (field: 'delivering' | 'checkpoint') => {
    const worker = (await report()) as WebhooksReport | undefined;
    return worker ? Number(worker[field]) : {};
  };
  const gauges = [
    [
      'webhook_worker_delivering',
      '1 while this worker holds the delivery lease, 0 standing by',
      'delivering',
    ],
    [
      'webhook_worker_checkpoint_position',
      'the last log position the webhook worker handled',
      'checkpoint',
    ],
  ] as const;
  for (const [name, help, field] of gauges) metrics.observe(name, help, () => read(field));
}
