/**
 * The steps of a runtime's stop, in order: stop accepting on every port at once, let requests in
 * flight finish, then the workers, the projections, the lease, the embedder and the stores: each
 * step whatever the others did (stop-steps.ts runs them).
 */
import type { Server } from 'node:http';
import type { EmbedderHandle } from '../search/create-embedder.js';
import { closeGracefully } from './http-server.js';
import type { Logger } from './logger.js';
import type { Projecting } from './projection-waits.js';
import type { StopStep } from './stop-steps.js';
import type { Stores } from './stores.js';

/** how long a stopping server lets the requests in flight finish */
const SHUTDOWN_GRACE_MS = 10_000;

export function stopSequence(parts: {
  servers: readonly Server[];
  /** the workers' stops, in the order they started: they stop in reverse */
  stoppers: StopStep[];
  /** read when the stop runs: a start that failed early has no engine or lease yet */
  projecting: Projecting;
  embedder: Pick<EmbedderHandle, 'close'>;
  stores: Pick<Stores, 'close'>;
  logger: Logger;
}): StopStep[] {
  const { servers, stoppers, projecting, embedder, stores, logger } = parts;
  return [
    {
      name: 'HTTP servers',
      run: async () => {
        const cut = await Promise.all(servers.map((s) => closeGracefully(s, SHUTDOWN_GRACE_MS)));
        const requests = cut.reduce((sum, n) => sum + n, 0);
        if (requests > 0) {
          logger.warn('shutdown grace ran out: requests in flight cut', {
            requests,
            graceMs: SHUTDOWN_GRACE_MS,
          });
        }
      },
    },
    // a copy: the list is built again for each stop, and reversing in place would flip it back
    ...[...stoppers].reverse(),
    // its last flush writes the read store's every unsaved change, not only the projections'
    { name: 'projection engine', run: async () => projecting.engine?.stop(), flushes: true },
    { name: 'projector lease', run: async () => projecting.lease?.release() },
    { name: 'embedder', run: () => embedder.close() },
    { name: 'stores', run: () => stores.close() },
  ];
}
