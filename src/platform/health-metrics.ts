/**
 * Gauges read from the health output when /metrics is scraped: projector lag and checkpoints
 * (from the projections' status alone, not the whole report), and the texts each search index
 * has waiting for the embedder — the embedder's queue — and holds embedded (from what the
 * services report under `search`, the figures /readyz shows).
 */
import type { Metrics } from './metrics.js';
import type { HealthReport } from './service.js';

export function observeProjections(
  metrics: Metrics,
  status: () => Promise<HealthReport['projections']>,
): void {
  const read = async (field: 'lag' | 'checkpoint') => {
    const projections = await status();
    return Object.fromEntries(projections.projectors.map((p) => [p.name, Number(p[field])]));
  };
  const gauges = [
    ['projector_lag_events', 'events of the log a projector has not applied yet', 'lag'],
    ['projector_checkpoint_position', 'the last log position a projector applied', 'checkpoint'],
  ] as const;
  for (const [name, help, field] of gauges)
    metrics.observe(name, help, () => read(field), 'projector');
}

interface SearchReport {
  /** per index, once the embedder is ready (src/search/indexer.ts `IndexProgress`) */
  indexes?: Record<string, { indexed: number; pending: number }>;
}

export function observeSearch(metrics: Metrics, report: () => Promise<unknown>): void {
  const read = async (field: 'indexed' | 'pending') => {
    const indexes = ((await report()) as SearchReport | undefined)?.indexes ?? {};
    return Object.fromEntries(Object.entries(indexes).map(([name, i]) => [name, i[field]]));
  };
  const gauges = [
    ['search_pending_texts', 'texts waiting for the embedder (its queue), per index', 'pending'],
    ['search_indexed_texts', 'texts embedded and searchable by meaning, per index', 'indexed'],
  ] as const;
  for (const [name, help, field] of gauges) metrics.observe(name, help, () => read(field), 'index');
}
