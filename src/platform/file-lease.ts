/**
 * A lease in the embedded data file, for what must run in one process only while several
 * processes share one DATA_DIR (two `npm start` on one directory; issue 17 runs two API processes
 * over one file). The embedded read store lives in each process's memory, so a lease kept there
 * (lease.ts) is every process's own, and each would deliver every webhook. SQLite's file locking
 * makes the one statement below atomic across processes: it takes the lease when it is free,
 * run out, or already this holder's.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import type { Lease, LeaseHolder } from './lease.js';

/**
 * better-sqlite3 is synchronous: with a busy timeout, a write waiting for the writer thread's
 * lock would stall the thread that answers requests (measured under update load: up to 11 ms
 * per renewal). So the connection never waits inside SQLite; a busy file is tried again after
 * a short asynchronous pause, for up to about two seconds.
 */
async function whenFree<T>(statement: () => T): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return statement();
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || attempt >= 40) throw error;
      await sleep(Math.min(attempt * 2, 50));
    }
  }
}

export interface FileLeases {
  lease(name: string): Lease;
  close(): void;
}

export function fileLeases(path: string): FileLeases {
  let db: Database.Database | undefined;
  const open = () => {
    if (db) return db;
    const opened = new Database(path, { timeout: 0 });
    try {
      opened.pragma('journal_mode = WAL');
      // a lease needs no fsync of its own (a crash loses it, as it should), and this connection
      // leaves the WAL's checkpoints to the event store's writer: either took ~10 ms on the
      // thread that answers requests, under write load
      opened.pragma('synchronous = NORMAL');
      opened.pragma('wal_autocheckpoint = 0');
      opened.exec(
        'CREATE TABLE IF NOT EXISTS process_leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, until INTEGER NOT NULL)',
      );
    } catch (error) {
      opened.close(); // busy: the next attempt opens it again
      throw error;
    }
    db = opened;
    return db;
  };
  return {
    lease(name) {
      return {
        async take(holder, now, ttlMs) {
          const taken = await whenFree(() =>
            open()
              .prepare(
                `INSERT INTO process_leases (name, holder, until) VALUES (?, ?, ?)
                 ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until = excluded.until
                 WHERE process_leases.holder = excluded.holder OR process_leases.until < ?`,
              )
              .run(name, holder, now + ttlMs, now),
          );
          return taken.changes > 0;
        },
        async release(holder) {
          await whenFree(() =>
            open()
              .prepare('UPDATE process_leases SET until = 0 WHERE name = ? AND holder = ?')
              .run(name, holder),
          );
        },
        async holder(now) {
          const row = (await whenFree(() =>
            open()
              .prepare('SELECT holder, until FROM process_leases WHERE name = ? AND until >= ?')
              .get(name, now),
          )) as LeaseHolder | undefined;
          return row && { holder: row.holder, until: row.until };
        },
      };
    },
    close() {
      db?.close();
      db = undefined;
    },
  };
}
