/**
 * rebuild: drop one read model and replay the whole log into it. Runs a projection engine with
 * just that projector, so the other read models are not touched.
 *
 * It never runs beside a live projector: dropping a read model under one loses the updates it
 * applies meanwhile (its checkpoint moves on past them). So it takes the projector lease first,
 * without waiting, and refuses when a `projector` process or a running server holds it; while it
 * holds the lease, a projector starting meanwhile stands by.
 */
import { z } from 'zod';
import { feedbackProjectors } from '../../../projections/feedback.js';
import type { Projector } from '../../../projections/shared/projector.js';
import { notesProjectors } from '../../../projections/notes.js';
import { silentLogger } from '../../platform/logger.js';
import { openStores } from '../../platform/stores.js';
import { createProjectionEngine } from '../../read/projection-engine.js';
import {
  PROJECTOR_LEASE,
  PROJECTOR_LEASE_ID,
  REBUILD_KIND,
  tryProjectorLease,
} from '../../read/projector-lease.js';
import { checkFlags } from '../args.js';
import { engineLog } from '../engine-log.js';
import { progressBar } from '../progress.js';
import type { CliCommand } from '../command.js';
import { ProjectorRunningError, UsageError } from '../errors.js';
import { requireEmbeddedLog } from '../session.js';

const REBUILD_WAIT_MS = 60 * 60_000;

/**
 * The plain read models of both services. The search indexes are left out on purpose: they
 * belong to a running service (its embedder fills them) and rebuild themselves when the
 * embedding provider changes.
 */
function allProjectors(): Projector[] {
  return [...feedbackProjectors(), ...notesProjectors()];
}

export const rebuildCommand: CliCommand = {
  name: 'rebuild',
  usage: '[--projector NAME]',
  summary:
    'drop one read model and replay the event log into it (run without --projector to list them)',
  flags: ['projector'],
  async run(flags, env) {
    const projectors = allProjectors();
    const names = projectors.map((p) => p.name).sort();
    if (!flags.has('projector')) {
      // the list is the answer asked for, as the help promises: one name a line, then its collections
      for (const name of names) {
        const { collections } = projectors.find((p) => p.name === name)!;
        env.out(`${name} (${collections.join(', ')})`);
      }
      return;
    }
    const input = checkFlags(z.object({ projector: z.string().min(1) }), flags);
    const projector = projectors.find((p) => p.name === input.projector);
    if (!projector) {
      throw new UsageError(
        `no projector named "${input.projector}"; choose one of: ${names.join(', ')}`,
      );
    }
    const config = env.config();
    // the log is only read: a mistyped DATA_DIR must not leave a new, empty store behind
    if (!config.EVENTSTORE_URL) requireEmbeddedLog(config);
    const started = performance.now();
    const stores = await openStores(config);
    let lostLease = false;
    const lease = await tryProjectorLease({
      lease: stores.lease(PROJECTOR_LEASE, PROJECTOR_LEASE_ID),
      leaseMs: config.PROJECTOR_LEASE_MS,
      kind: REBUILD_KIND,
      logger: silentLogger,
      onLost: () => {
        lostLease = true;
      },
    }).catch(async (error) => {
      await stores.close().catch(() => {});
      throw error;
    });
    if ('heldBy' in lease) {
      await stores.close().catch(() => {});
      const who = lease.heldBy ? ` (${lease.heldBy})` : '';
      throw new ProjectorRunningError(
        `a projector is running${who}; stop it before rebuilding ${projector.name}`,
      );
    }
    const log = engineLog();
    const engine = createProjectionEngine({
      eventStore: stores.eventStore,
      readStore: stores.readStore,
      projectors: [projector],
      waitTimeoutMs: REBUILD_WAIT_MS,
      logger: log.logger,
    });
    let head = 0n;
    let replaying = false;
    const draw = async () => {
      if (!replaying) return; // before the drop, the old checkpoint would show a full bar
      const status = await engine.status();
      const at = status.projectors.find((p) => p.name === projector.name)?.checkpoint ?? '0';
      env.progress?.(
        `rebuilding ${projector.name} ${progressBar(BigInt(at), head)} (position ${at} of ${head})`,
      );
    };
    // a bar on a terminal while the log replays (positions: event numbers on the embedded log)
    const ticker = env.progress && setInterval(() => void draw().catch(() => {}), 250);
    try {
      head = await stores.eventStore.headPosition();
      await engine.start();
      await engine.rebuild(projector.name);
      replaying = true;
      head = await stores.eventStore.headPosition();
      await engine.waitFor(head);
      env.progress?.(`rebuilding ${projector.name} ${progressBar(head, head)}\n`);
    } catch (error) {
      throw log.failed(error);
    } finally {
      clearInterval(ticker);
      // stop flushes the replayed documents and the checkpoint
      await engine.stop().catch(() => {});
      await lease.release();
      await stores.close().catch(() => {});
    }
    if (lostLease) {
      throw new ProjectorRunningError(
        `a projector took the lease while ${projector.name} was rebuilt; stop it and rebuild again`,
      );
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const collections = projector.collections.join(', ');
    env.out(`rebuilt ${projector.name} (${collections}) up to position ${head} in ${seconds} s`);
  },
};
