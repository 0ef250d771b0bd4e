/**
 * Projector lag as `/readyz` and `/metrics` show it, for the projection engine (its checkpoints in
 * memory) and for the `api` and `webhooks` roles (the checkpoints flushed to the read store).
 *
 * Lag is the events of the log a projector has not applied yet — a count from the event store,
 * never `head - checkpoint`: positions are only compared (src/eventstore/types.ts), and on
 * KurrentDB one event behind is ~2^64 apart. One `countBehindHead` read serves every projector;
 * it stops at LAG_CAP events, shown as `"10000+"` (the gauge takes 10000), so a status call on a
 * projector millions of events behind (a rebuild) reads no more than one 10,000 behind does.
 */
import type { EventStore } from '../eventstore/types.js';

/** Past this many events the lag shows as `${LAG_CAP}+`: far behind is all readiness needs. */
export const LAG_CAP = 10_000;

export interface ProjectorStatus {
  name: string;
  /** the last position the projector applied, exactly (a bigint's digits) */
  checkpoint: string;
  /** events behind the head: `"0"` when caught up, `"10000+"` past the cap */
  lag: string;
}

export interface ProjectionsStatus {
  head: string;
  projectors: ProjectorStatus[];
  /** the read store refuses the read models' writes (a full disk): retried, reads go stale */
  flushFailure?: string;
  /** the engine stopped on an error it cannot retry: writes fail until a restart */
  stopped?: string;
}

/** the last position a projector applied */
export interface ProjectorCheckpoint {
  name: string;
  checkpoint: bigint;
}

export async function projectorLags(
  eventStore: Pick<EventStore, 'countBehindHead'>,
  checkpoints: readonly ProjectorCheckpoint[],
  cap = LAG_CAP,
): Promise<ProjectionsStatus> {
  const at = checkpoints.map((p) => p.checkpoint);
  const { head, counts } = await eventStore.countBehindHead(at, cap);
  return {
    head: head.toString(),
    projectors: checkpoints.map((p, i) => ({
      name: p.name,
      checkpoint: p.checkpoint.toString(),
      lag: counts[i] >= cap ? `${cap}+` : String(counts[i]),
    })),
  };
}

/** A shown lag as a gauge value: the count, or the cap for `"10000+"`. */
export function lagEvents(lag: string): number {
  return Number(lag.endsWith('+') ? lag.slice(0, -1) : lag);
}
