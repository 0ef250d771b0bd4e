/**
 * Removes expired registered clients from the store (client-lifetime.ts says when one expires).
 * They used to go only with the next registration (the adapter's sweep of the model it writes),
 * all at once: a service nobody registered with for a while kept every abandoned client.
 *
 * On a timer, not on lookup: an expired client already reads as absent (adapter.ts, live():
 * oidc-provider answers `invalid_client`), and an abandoned registration is exactly the client
 * nobody looks up again, so removing on lookup would leave the ones that matter.
 *
 * The timer runs with the service's workers (its startWorkers), in the process that applies the
 * projections: the embedded server, or over MongoDB the one projector holding the lease, so one
 * process sweeps a shared store and the API processes never do. Should two ever overlap (a
 * projector paused past its lease), a sweep is idempotent and cheap: at most SWEEP_BATCH ids found
 * by the `expiresAt` index, then removed only if still expired. A client is removed only once it
 * has been expired for SWEEP_GRACE_MS: an API process whose clock is behind the sweeper's still
 * reads it as live for that long and may keep it (keepClientUntil), which it cannot do for a
 * client removed under it.
 */
import type { Collection, ReadStore } from '../../readstore/types.js';
import { collectionFor, type StoredArtifact } from './adapter.js';

/** how often a sweep runs */
export const SWEEP_EVERY_MS = 60_000;
/** most clients one sweep removes; a backlog goes in further sweeps */
export const SWEEP_BATCH = 500;
/** how long a client stays expired before it is removed (clock skew between processes) */
export const SWEEP_GRACE_MS = 60_000;

/** One sweep: removes up to `batch` clients expired SWEEP_GRACE_MS before `now`; how many. */
export async function sweepExpiredClients(
  clients: Collection<StoredArtifact>,
  now: number,
  batch = SWEEP_BATCH,
): Promise<number> {
  const expired = { expiresAt: { $ne: null, $lte: now - SWEEP_GRACE_MS } };
  const found = await clients.find(expired, { limit: batch, projection: { _id: 1 } });
  if (found.length === 0) return 0;
  const ids = found.map((client) => client._id);
  return (await clients.deleteMany({ _id: { $in: ids }, ...expired })).deletedCount;
}

export interface ClientSweepOptions {
  readStore: ReadStore;
  /** the authorization server's collectionPrefix (`feedback_oauth`, `notes_oauth`) */
  prefix: string;
  now: () => number;
  /** a sweep the store refused: one line; the next one tries again */
  warn: (line: string) => void;
  /** default SWEEP_EVERY_MS (tests pass less) */
  everyMs?: number;
}

export interface ClientSweep {
  /** no further sweep starts; resolves once the one running (if any) has ended */
  stop(): Promise<void>;
}

/** Sweeps every `everyMs` until stopped; the timer never keeps the process alive. */
export function startClientSweep(options: ClientSweepOptions): ClientSweep {
  const clients = collectionFor(options, 'Client');
  let indexed = false;
  let running: Promise<void> | undefined;

  async function sweep(): Promise<void> {
    if (!indexed) {
      await clients.createIndex({ keys: { expiresAt: 1 } });
      indexed = true;
    }
    // on the embedded store, or a restart brings them back
    if ((await sweepExpiredClients(clients, options.now())) > 0) await options.readStore.flush();
  }

  const timer = setInterval(() => {
    // a store slower than the timer: skip a tick, never pile sweeps up
    if (running) return;
    running = sweep()
      .catch((error: unknown) => {
        const cause = error instanceof Error ? error.message : String(error);
        options.warn(`expired OAuth clients (${options.prefix}) not swept: ${cause}`);
      })
      .finally(() => {
        running = undefined;
      });
  }, options.everyMs ?? SWEEP_EVERY_MS);
  timer.unref();

  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
