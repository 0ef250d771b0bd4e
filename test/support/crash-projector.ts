/**
 * The read model the crash test keeps beside its writers: per stream, how many events, the sum
 * of their payload lengths and the last revision. Position-guarded like every projector, so a
 * replay after a crash must land on exactly what a fresh rebuild computes.
 */
import { guardedUpdate } from '../../projections/shared/guard.js';
import type { Projector } from '../../projections/shared/projector.js';

export const CRASH_TALLY = 'crash_tally';

export function crashTallyProjector(): Projector {
  return {
    name: CRASH_TALLY,
    collections: [CRASH_TALLY],
    filter: { eventTypes: ['CrashTestAppended'] },
    async apply(event, store) {
      const data = event.data as { payload: string };
      await guardedUpdate(
        store.collection(CRASH_TALLY),
        event.streamId,
        event.position,
        { $inc: { events: 1, bytes: data.payload.length }, $set: { lastRevision: event.revision } },
        { upsert: true },
      );
    },
  };
}
