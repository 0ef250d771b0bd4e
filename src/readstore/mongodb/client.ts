/**
 * The read store's MongoDB client: its timeouts, and a watchdog that replaces it when its server
 * monitor has wedged (heartbeat-watchdog.ts says how that happens). Collections ask for the
 * current database on every operation, so a replacement reaches all of them at once.
 */
import { type Db, MongoClient, type MongoClientOptions } from 'mongodb';
import { type HeartbeatWatchdog, watchHeartbeats } from './heartbeat-watchdog.js';

/**
 * How long one send or receive on a socket may wait. The driver's default waits forever: after
 * the stand-ins' MongoDB side was restarted under load, a projector's operation on a connection
 * that never answered hung for good (no error, no retry; seen 1 run in 5 of the engines suite).
 * Timing out turns that into a network error, which the projection engine and the lease retry.
 * Nothing here holds a socket idle on purpose (no change streams), and no single read-model
 * operation should take this long.
 */
export const SOCKET_TIMEOUT_MS = 15_000;
/** Opening a connection: the TCP connect, then the handshake's `hello`, each bounded by this. */
export const CONNECT_TIMEOUT_MS = 10_000;
/** How often the driver checks the server (its default); a streaming check waits this long. */
export const HEARTBEAT_FREQUENCY_MS = 10_000;
/**
 * The longest a healthy check can last: a new monitor connection (connect, then handshake) or a
 * streaming `hello` (HEARTBEAT_FREQUENCY_MS of waiting plus CONNECT_TIMEOUT_MS of socket
 * timeout) take at most 20 s; 10 s more to spare. A check pending longer is wedged.
 */
export const LONGEST_CHECK_MS = 2 * CONNECT_TIMEOUT_MS + HEARTBEAT_FREQUENCY_MS;
const WATCH_EVERY_MS = 5_000;

const CLIENT_OPTIONS: MongoClientOptions = {
  writeConcern: { w: 'majority' },
  readConcern: { level: 'majority' },
  ignoreUndefined: true,
  serverSelectionTimeoutMS: 10_000,
  socketTimeoutMS: SOCKET_TIMEOUT_MS,
  connectTimeoutMS: CONNECT_TIMEOUT_MS,
  heartbeatFrequencyMS: HEARTBEAT_FREQUENCY_MS,
};

export interface MongoConnection {
  /** the database on the current client */
  db(): Db;
  /** start over on a new client; the old one is closed in the background */
  replace(reason: string): void;
  close(): Promise<void>;
}

export function mongoConnection(options: {
  url: string;
  database: string;
  /** the client was replaced (for the process's log) */
  onReplaced?: (reason: string) => void;
}): MongoConnection {
  let client: MongoClient;
  let db: Db;
  let watchdog: HeartbeatWatchdog;
  const start = () => {
    client = new MongoClient(options.url, CLIENT_OPTIONS);
    db = client.db(options.database);
    const own: HeartbeatWatchdog = watchHeartbeats(client, {
      longestCheckMs: LONGEST_CHECK_MS,
      everyMs: WATCH_EVERY_MS,
      onWedged: (address, pendingMs) => {
        // two servers wedged at once: the first report replaces the client, not the second
        if (watchdog !== own) return;
        replace(
          `the driver's check of ${address} has not ended after ${Math.round(pendingMs / 1000)} s`,
        );
      },
    });
    watchdog = own;
  };
  const replace = (reason: string) => {
    const old = client;
    watchdog.stop();
    start();
    // closing ends the old client's connections; a wedged check is left for the collector
    old.close().catch(() => {});
    options.onReplaced?.(reason);
  };
  start();
  return {
    db: () => db,
    replace,
    async close() {
      watchdog.stop();
      await client.close();
    },
  };
}
