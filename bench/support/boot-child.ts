/**
 * Child process for the boot measurement. `store`: open the event store and the read store
 * (already projected to the head), start the engine and wait until it is current — what a
 * restart costs. `raw`: read and JSON.parse every event — what replaying from scratch costs.
 * Prints one JSON line: milliseconds since the process started, current and peak RSS.
 */
import Database from 'better-sqlite3';
import { openEmbeddedEventStore } from '../../src/eventstore/embedded/index.js';
import { createProjectionEngine } from '../../src/read/projection-engine.js';
import { openEmbeddedReadStore } from '../../src/readstore/embedded/index.js';
import { countsProjector } from './rebuild.js';

async function bootStore(path: string, integrityCheck: 'quick' | 'none'): Promise<void> {
  const eventStore = await openEmbeddedEventStore({ path, integrityCheck });
  const readStore = await openEmbeddedReadStore({ path });
  const engine = createProjectionEngine({
    eventStore,
    readStore,
    projectors: [countsProjector],
    logger: { error() {}, info() {} },
  });
  await engine.start();
  await engine.waitFor(await eventStore.headPosition(), 600_000);
  report();
  await engine.stop();
  await readStore.close();
  await eventStore.close();
}

function rawReplay(path: string): void {
  const db = new Database(path, { readonly: true });
  const counts: Record<string, number> = {};
  const rows = db
    .prepare(
      'SELECT position, stream_id, revision, event_id, type, data, metadata FROM es_events ORDER BY position',
    )
    .raw();
  for (const row of rows.iterate() as IterableIterator<unknown[]>) {
    JSON.parse(row[5] as string);
    JSON.parse(row[6] as string);
    counts[row[4] as string] = (counts[row[4] as string] ?? 0) + 1;
  }
  report();
  db.close();
}

function report(): void {
  const rss = process.memoryUsage().rss;
  const maxRss = process.resourceUsage().maxRSS * 1024;
  process.stdout.write(`${JSON.stringify({ ms: performance.now(), rss, maxRss })}\n`);
}

const [mode, path] = process.argv.slice(2);
if (mode === 'raw') rawReplay(path);
else await bootStore(path, mode === 'store-nocheck' ? 'none' : 'quick');
