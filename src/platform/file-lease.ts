/**
 * A lease in the embedded data file, for what must run in one process only while several
 * processes share one DATA_DIR (two `npm start` on one directory; issue 17 runs two API processes
 * over one file). The embedded read store lives in each process's memory, so a lease kept there
 * (lease.ts) is every process's own, and each would deliver every webhook. SQLite's file locking
 * makes the one statement below atomic across processes: it takes the lease when it is free,
 * run out, or already this holder's.
 */
import Database from 'better-sqlite3';
import type { Lease } from './lease.js';

export interface FileLeases {
  lease(name: string): Lease;
  close(): void;
}

export function fileLeases(path: string): FileLeases {
  let db: Database.Database | undefined;
  const open = () => {
    if (db) return db;
    db = new Database(path, { timeout: 5_000 });
    db.pragma('journal_mode = WAL');
    db.exec(
      'CREATE TABLE IF NOT EXISTS process_leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, until INTEGER NOT NULL)',
    );
    return db;
  };
  return {
    lease(name) {
      return {
        async take(holder, now, ttlMs) {
          const taken = open()
            .prepare(
              `INSERT INTO process_leases (name, holder, until) VALUES (?, ?, ?)
               ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until = excluded.until
               WHERE process_leases.holder = excluded.holder OR process_leases.until < ?`,
            )
            .run(name, holder, now + ttlMs, now);
          return taken.changes > 0;
        },
        async release(holder) {
          open()
            .prepare('UPDATE process_leases SET until = 0 WHERE name = ? AND holder = ?')
            .run(name, holder);
        },
        async holder(now) {
          const row = open()
            .prepare('SELECT holder FROM process_leases WHERE name = ? AND until >= ?')
            .get(name, now) as { holder: string } | undefined;
          return row?.holder;
        },
      };
    },
    close() {
      db?.close();
      db = undefined;
    },
  };
}
