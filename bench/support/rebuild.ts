/**
 * The 1M-event part of the bench: bulk generation through the port, raw read + JSON.parse of the
 * same rows (baseline), and a rebuild of a trivial projector through the projection engine.
 */
import Database from 'better-sqlite3';
import type { Projector } from '../../projections/shared/projector.js';
import { openEmbeddedEventStore } from '../../src/eventstore/embedded/index.js';
import { createProjectionEngine } from '../../src/read/projection-engine.js';
import { openEmbeddedReadStore } from '../../src/readstore/embedded/index.js';
import { benchEvent } from './store-append.js';

export const EVENT_TYPES = [
  'ItemCreated',
  'ItemVoted',
  'ReplyAdded',
  'ItemStatusChanged',
  'TagAdded',
  'NoteCreated',
  'NoteEdited',
  'PersonJoined',
];
const PER_APPEND = 1000;
const IN_FLIGHT = 4;

export interface Generated {
  events: number;
  seconds: number;
}

/** Appends `total` events in large appends (grouped by the store) until done or out of time. */
export async function generate(
  path: string,
  total: number,
  maxSeconds: number,
  padding: string,
): Promise<Generated> {
  const store = await openEmbeddedEventStore({ path });
  const started = performance.now();
  const deadline = started + maxSeconds * 1000;
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < total && performance.now() < deadline) {
          const first = next;
          const count = Math.min(PER_APPEND, total - first);
          next += count;
          const events = Array.from({ length: count }, (_, i) =>
            benchEvent(EVENT_TYPES[(first + i) % EVENT_TYPES.length], first + i, padding),
          );
          await store.appendToStream(`bulk-${first / PER_APPEND}`, events, {
            expectedRevision: 'no_stream',
          });
        }
      }),
    );
    return {
      events: Number(await store.headPosition()),
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await store.close();
  }
}

/** Baseline: one SELECT over every row, parsing data and metadata, counting per type. */
export function rawReadParse(path: string): {
  events: number;
  seconds: number;
  counts: Record<string, number>;
} {
  const db = new Database(path, { readonly: true });
  const started = performance.now();
  const counts: Record<string, number> = {};
  let events = 0;
  try {
    const rows = db
      .prepare(
        'SELECT position, stream_id, revision, event_id, type, data, metadata FROM es_events ORDER BY position',
      )
      .raw();
    for (const row of rows.iterate() as IterableIterator<unknown[]>) {
      JSON.parse(row[5] as string);
      JSON.parse(row[6] as string);
      const type = row[4] as string;
      counts[type] = (counts[type] ?? 0) + 1;
      events++;
    }
  } finally {
    db.close();
  }
  return { events, seconds: (performance.now() - started) / 1000, counts };
}

export const COUNTS_PROJECTOR = 'bench-counts';

/** Counts events per type into one read-store document. */
export const countsProjector: Projector = {
  name: COUNTS_PROJECTOR,
  collections: ['bench_counts'],
  async apply(event, store) {
    await store
      .collection('bench_counts')
      .updateOne({ _id: 'counts' }, { $inc: { [event.type]: 1 } }, { upsert: true });
  },
};

/** Replays the whole log through the engine into an empty read model and flushes it. */
export async function rebuildThroughEngine(
  path: string,
): Promise<{ events: number; seconds: number; counts: Record<string, unknown> }> {
  const eventStore = await openEmbeddedEventStore({ path, integrityCheck: 'none' });
  const readStore = await openEmbeddedReadStore({ path });
  const engine = createProjectionEngine({
    eventStore,
    readStore,
    projectors: [countsProjector],
    flushEvery: 50_000,
  });
  try {
    const head = await eventStore.headPosition();
    const started = performance.now();
    await engine.start();
    await engine.waitFor(head, 600_000);
    await engine.stop();
    const seconds = (performance.now() - started) / 1000;
    const counts = (await readStore.collection('bench_counts').findOne({ _id: 'counts' })) ?? {};
    return { events: Number(head), seconds, counts };
  } finally {
    await readStore.close();
    await eventStore.close();
  }
}
