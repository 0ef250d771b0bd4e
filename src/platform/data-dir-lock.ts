/**
 * One server per data directory while the read store is the embedded one. That store lives in
 * the memory of the process that opened it and is read from the file only at start; only the
 * event log is shared between processes. Two `npm start` on one DATA_DIR therefore kept two
 * diverging copies of everything that is not derived from events (failure audit): an access
 * token issued by one was refused by the other, a refresh token already used at one was taken
 * again at the other (two live token chains), and every rate limit counted per process.
 *
 * The lock is SQLite's: a connection in exclusive locking mode keeps the lock it takes with its
 * first write until it closes, and the operating system drops it when the process dies (kill -9
 * included), so a restart never waits for a stale lock. The CLI takes no lock: it works beside a
 * running server (it appends events, which the server reads from the log).
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ReadStoreUnavailableError } from '../readstore/types.js';
import { restrictFiles } from './private-files.js';

export interface DataDirLock {
  release(): void;
}

export function lockDataDir(dataDir: string): DataDirLock {
  const path = join(dataDir, 'server.lock');
  const db = new Database(path, { timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    // no journal file beside it (one would be made by the umask, not private like DATA_DIR's)
    db.pragma('journal_mode = MEMORY');
    db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER, since TEXT)');
    db.transaction(() => {
      db.prepare('DELETE FROM holder').run();
      db.prepare('INSERT INTO holder VALUES (?, ?)').run(process.pid, new Date().toISOString());
    })();
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    throw new ReadStoreUnavailableError(
      `DATA_DIR=${dataDir}: another server process serves this data directory. The embedded read ` +
        'store lives in one process, so a second one would keep its own sign-ins and rate limits; ' +
        'run one `npm start` per data directory (several API processes need MONGODB_URL; ' +
        'SHARED_DATA_DIR=true allows it with that cost)',
    );
  }
  restrictFiles(path);
  return {
    release() {
      if (db.open) db.close();
    },
  };
}
