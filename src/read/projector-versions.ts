/**
 * Projector versions (projections/shared/projector.ts `version`): before the engine starts, a
 * read model whose checkpoint is stored under another version's id is dropped with that
 * checkpoint, so the engine replays the whole log into it — what `rebuild` does, done by itself
 * on the first start of a version that makes different documents of the same events.
 *
 * Crash-safe either way: until the new version's first checkpoint is stored the old one (or
 * none) is there, and a start finds the same state again and drops again; once it is stored,
 * the replay resumes from it like any catch-up.
 *
 * Both ends are logged: the drop, and the moment the replay reaches the head the start found
 * (README: "drops it and replays the log into it on start (logged)").
 */
import {
  checkpointId,
  type Projector,
  projectorNameOf,
} from '../../projections/shared/projector.js';
import type { ReadStore } from '../readstore/types.js';

/** Drops `projector`'s read model when it was built by another version; says whether it did. */
export async function dropOtherVersion(
  readStore: ReadStore,
  projector: Projector,
  stored: ReadonlyMap<string, bigint>,
  logger: Pick<Console, 'info'>,
): Promise<boolean> {
  const id = checkpointId(projector);
  if (stored.has(id)) return false;
  const others = [...stored.keys()].filter(
    (key) => key !== id && projectorNameOf(key) === projector.name,
  );
  if (others.length === 0) return false;
  logger.info(
    `projector ${projector.name}: read model built by ${others.join(', ')}; rebuilding it as ${id}`,
  );
  for (const collection of projector.collections) await readStore.dropCollection(collection);
  for (const key of others) await readStore.deleteCheckpoint(key);
  return true;
}

/**
 * Sets each projector's stored checkpoint in `checkpoints`, or drops its read model when another
 * version built it (then it has none: the replay starts at 0), and runs its setup after; returns
 * the checkpoint ids of the read models dropped.
 */
export async function restoreCheckpoints(
  readStore: ReadStore,
  projectors: readonly Projector[],
  checkpoints: Map<string, bigint>,
  logger: Pick<Console, 'info'>,
): Promise<string[]> {
  const stored = await readStore.checkpoints();
  const rebuilt: string[] = [];
  for (const p of projectors) {
    const id = checkpointId(p);
    const at = stored.get(id);
    if (at !== undefined) checkpoints.set(id, at);
    else if (await dropOtherVersion(readStore, p, stored, logger)) rebuilt.push(id);
    await p.setup?.(readStore);
  }
  return rebuilt;
}

export interface Rebuilt {
  /** checkpoint ids (name@version) of the read models dropped at this start */
  ids: readonly string[];
  /** the log's head when they were dropped: the replay has caught up on reaching it */
  head: bigint;
  /** performance.now() when the start began */
  startedAt: number;
  /** resolves when every projector has applied the log up to `head`; rejects on stop */
  reached: Promise<void>;
  /** events the engine applied since the drop */
  replayed(): number;
}

/** One line per rebuilt read model when its replay has caught up, or why it did not. */
export function sayWhenRebuilt(logger: Pick<Console, 'info'>, rebuilt: Rebuilt): void {
  const { ids, head } = rebuilt;
  rebuilt.reached.then(
    () => {
      const events = rebuilt.replayed();
      const durationMs = Math.round(performance.now() - rebuilt.startedAt);
      for (const projector of ids) {
        logger.info(
          `projector ${projector}: rebuilt, replayed ${events} events up to position ${head} in ${durationMs} ms`,
          { projector, events, head: Number(head), durationMs },
        );
      }
    },
    (error: Error) => {
      for (const projector of ids) {
        logger.info(
          `projector ${projector}: rebuild stopped before position ${head} (${error.message}); the next start goes on with it`,
          { projector, head: Number(head) },
        );
      }
    },
  );
}
