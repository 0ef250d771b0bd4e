/**
 * A full disk as SQLite sees one, on the embedded read store's own connection: the file may not
 * grow (`max_page_count` at its size), so a write that needs a page more fails with SQLITE_FULL,
 * as on a full file system. The fault is injected at the edge (the file); everything above it runs
 * as in production.
 *
 * The page limit alone lets some writes through that a full disk refuses: one that fits the free
 * bytes of a page (a read-store document is 0.5–3 KB in 4 KB pages) or only deletes — the limit
 * does not count the WAL, which on a full disk cannot grow either. So each write of the read
 * store's tables is made to need pages: a trigger (TEMP: this connection's only) adds more bytes
 * to it than the file has free.
 */
import type Database from 'better-sqlite3';
import type { ReadStore } from '../../src/readstore/types.js';

/** the embedded read store's own SQLite connection */
export function connectionOf(readStore: ReadStore): Database.Database {
  const store = readStore as unknown as { file?: { db?: Database.Database } };
  if (!store.file?.db) throw new Error('not the embedded read store');
  return store.file.db;
}

const TABLES = ['rm_docs', 'rm_checkpoints', 'rm_indexes'] as const;
const EVENTS = ['INSERT', 'DELETE'] as const;
/** upserts of existing rows fire INSERT triggers too, so these cover every write of the store */
const triggerName = (table: string, event: string) => `full_disk_${table}_${event}`;

/** limits the file to its size and makes the writes `when` selects need more than it has free */
function limit(db: Database.Database, when: (table: string, event: string) => string | null) {
  db.exec('CREATE TABLE IF NOT EXISTS filler (x BLOB)');
  // a few free pages for the writes not refused (the targeted fault below)
  db.exec('INSERT INTO filler VALUES (randomblob(16384)); DELETE FROM filler');
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const free = db.pragma('freelist_count', { simple: true }) as number;
  db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
  const bytes = (free + 16) * pageSize;
  for (const table of TABLES) {
    for (const event of EVENTS) {
      const condition = when(table, event);
      if (condition === null) continue;
      db.exec(`CREATE TEMP TRIGGER ${triggerName(table, event)} BEFORE ${event} ON main.${table}
        WHEN ${condition} BEGIN INSERT INTO main.filler VALUES (randomblob(${bytes})); END`);
    }
  }
}

/** The disk is full: no write of the read store goes through. */
export function fillDisk(readStore: ReadStore): void {
  limit(connectionOf(readStore), () => 'true');
}

/**
 * The disk runs out at one write: the file takes every other change but not a write of a
 * document of `collection` (of a new one only, with `onlyNew`), as if the disk had filled up just
 * then — between two writes of one request, say.
 */
export function fullOnWrite(
  readStore: ReadStore,
  collection: string,
  { onlyNew = false }: { onlyNew?: boolean } = {},
): void {
  const quoted = `'${collection.replaceAll("'", "''")}'`;
  const isNew =
    'NOT EXISTS (SELECT 1 FROM main.rm_docs WHERE collection = NEW.collection AND id = NEW.id)';
  limit(connectionOf(readStore), (table, event) => {
    if (table !== 'rm_docs') return null;
    if (event === 'DELETE') return onlyNew ? null : `OLD.collection = ${quoted}`;
    return `NEW.collection = ${quoted}${onlyNew ? ` AND ${isNew}` : ''}`;
  });
}

/** Room again: the limit lifted, the triggers and the filler gone. */
export function freeDisk(readStore: ReadStore): void {
  const db = connectionOf(readStore);
  for (const table of TABLES) {
    for (const event of EVENTS) db.exec(`DROP TRIGGER IF EXISTS temp.${triggerName(table, event)}`);
  }
  db.pragma('max_page_count = 1073741823');
  db.exec('DROP TABLE IF EXISTS filler');
}
