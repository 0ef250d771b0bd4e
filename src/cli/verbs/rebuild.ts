/**
 * rebuild: drop read models and replay the whole log into them. Runs a projection engine with
 * just their projectors, so the other read models are not touched. The store opens without
 * reading the documents it drops, so read models whose documents cannot be read any more are
 * rebuilt too (failure audit F5): the way out a server refusing to start over them names. The
 * search indexes are among them: their texts are staged by the replay and embedded again here
 * (rebuild-search.ts).
 *
 * It never runs beside a live projector: dropping a read model under one loses the updates it
 * applies meanwhile (its checkpoint moves on past them). So it takes the projector lease first,
 * without waiting, and refuses when a `projector` process or a running server holds it; while it
 * holds the lease, a projector starting meanwhile stands by.
 */
import { z } from 'zod';
import { heldByNote } from '../../platform/lease.js';
import { silentLogger } from '../../platform/logger.js';
import { openStores } from '../../platform/stores.js';
import { createProjectionEngine } from '../../read/projection-engine.js';
import {
  PROJECTOR_LEASE,
  PROJECTOR_LEASE_ID,
  REBUILD_KIND,
  tryLease,
} from '../../read/projector-lease.js';
import { checkFlags } from '../args.js';
import { engineLog } from '../engine-log.js';
import { progressBar } from '../progress.js';
import type { CliCommand } from '../command.js';
import { ProjectorRunningError, UsageError } from '../errors.js';
import { allProjectors } from '../../../projections/all.js';
import { searchProjections } from '../../../projections/search-indexes.js';
import { requireEmbeddedLog } from '../session.js';
import { rebuildableProjectors } from './rebuild-search.js';

const REBUILD_WAIT_MS = 60 * 60_000;

export const rebuildCommand: CliCommand = {
  name: 'rebuild',
  usage: '[--projector NAME[,NAME...]]',
  summary:
    'drop read models and replay the event log into them (run without --projector to list them)',
  flags: ['projector'],
  async run(flags, env) {
    const known = [...allProjectors(), ...searchProjections()];
    const names = known.map((p) => p.name).sort();
    if (!flags.has('projector')) {
      // the list is the answer asked for, as the help promises: one name a line, then its collections
      for (const name of names) {
        const { collections } = known.find((p) => p.name === name)!;
        env.out(`${name} (${collections.join(', ')})`);
      }
      return;
    }
    const input = checkFlags(z.object({ projector: z.string().min(1) }), flags);
    const asked = [...new Set(input.projector.split(','))];
    for (const name of asked) {
      if (!names.includes(name))
        throw new UsageError(`no projector named "${name}"; choose one of: ${names.join(', ')}`);
    }
    const what = asked.join(', ');
    const config = env.config();
    const rebuildable = rebuildableProjectors(config);
    // in the order a server applies them: a search index reads the documents of the ones before
    const chosen = rebuildable.projectors.filter((p) => asked.includes(p.name));
    const collections = asked.flatMap((name) => known.find((p) => p.name === name)!.collections);
    // the log is only read: a mistyped DATA_DIR must not leave a new, empty store behind
    if (!config.EVENTSTORE_URL) requireEmbeddedLog(config);
    const started = performance.now();
    const stores = await openStores(config, { rebuilding: collections });
    let lostLease = false;
    const lease = await tryLease({
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
      // closed without a flush: what it opened as dropped stays on disk as it was
      await stores.close().catch(() => {});
      throw new ProjectorRunningError(
        `a projector is running${heldByNote(lease.heldBy)}; stop it before rebuilding ${what}`,
      );
    }
    const log = engineLog();
    const engine = createProjectionEngine({
      eventStore: stores.eventStore,
      readStore: stores.readStore,
      projectors: chosen,
      waitTimeoutMs: REBUILD_WAIT_MS,
      logger: log.logger,
    });
    let head = 0n;
    const draw = async () => {
      let at = head;
      for (const p of (await engine.status()).projectors) {
        if (BigInt(p.checkpoint) < at) at = BigInt(p.checkpoint);
      }
      env.progress?.(`rebuilding ${what} ${progressBar(at, head)} (position ${at} of ${head})`);
    };
    let ticker: NodeJS.Timeout | undefined;
    try {
      for (const projector of chosen) await engine.rebuild(projector.name);
      head = await stores.eventStore.headPosition();
      // a bar on a terminal while the log replays (positions: event numbers on the embedded log)
      if (env.progress) ticker = setInterval(() => void draw().catch(() => {}), 250);
      await engine.start();
      await engine.waitFor(head);
      clearInterval(ticker);
      env.progress?.(`rebuilding ${what} ${progressBar(head, head)}\n`);
      await rebuildable.embed(stores.readStore, chosen, env.progress);
    } catch (error) {
      throw log.failed(error);
    } finally {
      clearInterval(ticker);
      await rebuildable.close().catch(() => {});
      // stop flushes the replayed documents and the checkpoints
      await engine.stop().catch(() => {});
      await lease.release();
      await stores.close().catch(() => {});
    }
    if (lostLease) {
      throw new ProjectorRunningError(
        `a projector took the lease while ${what} was rebuilt; stop it and rebuild again`,
      );
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    env.out(`rebuilt ${what} (${collections.join(', ')}) up to position ${head} in ${seconds} s`);
  },
};
