/**
 * What a process checks before it opens anything, and how the system errors of a failed start
 * are told to an operator: one line naming the configuration key at fault.
 */
import { checkDataDir, usesDataDir } from '../config/data-dir.js';
import { ConfigError } from '../config/load.js';
import type { Config } from '../config/schema.js';
import type { Role } from '../platform/runtime.js';

/**
 * The split roles share their read models through MongoDB. The embedded read store lives in the
 * memory of the one process that opened it, so an `api` process without MONGODB_URL would wait
 * for projections no process of its own runs (every write a 503), and a `webhooks` process would
 * retry events forever. The embedded event log may stay: processes on one machine share its
 * SQLite file (EVENTSTORE_URL is for a KurrentDB cluster).
 */
export function checkBeforeStart(role: Role, config: Config): void {
  if (
    role !== 'projector' &&
    role !== 'webhooks' &&
    config.FEEDBACK_PORT !== 0 &&
    config.FEEDBACK_PORT === config.NOTES_PORT
  ) {
    throw new ConfigError(
      `FEEDBACK_PORT and NOTES_PORT are both ${config.FEEDBACK_PORT}: each service listens on a port of its own`,
    );
  }
  if (role !== 'all' && !config.MONGODB_URL) {
    throw new ConfigError(
      `MONGODB_URL is not set: start:${role} runs beside the other roles and shares the read models with them through MongoDB; set MONGODB_URL, or run \`npm start\` for the embedded default (every role in one process)`,
    );
  }
  if (role !== 'all' && !config.APP_SECRET) {
    // without it each process generates its own DATA_DIR/secret: another API process refuses
    // its cursors, and the webhook worker cannot open the signing secrets it sealed
    throw new ConfigError(
      `APP_SECRET is not set: start:${role} shares signed cursors and sealed webhook secrets with the other processes, so every one needs the same APP_SECRET (32+ random characters)`,
    );
  }
  if (usesDataDir(config)) {
    checkDataDir(config.DATA_DIR, 'write', !config.EVENTSTORE_URL || !config.MONGODB_URL);
  }
}

interface SystemError extends Error {
  code?: string;
  syscall?: string;
  port?: number;
  path?: string;
}

/** A listen that failed, as a line naming HOST or the port's key; undefined for anything else. */
export function explainStartError(error: unknown, config: Config, role: Role): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, syscall, port, path } = error as SystemError;
  if (syscall === 'mkdir') {
    // past checkDataDir: the file system itself refuses (a virtual one such as /proc, read-only)
    return `DATA_DIR=${config.DATA_DIR}: the folder cannot be made (${code} at ${path})`;
  }
  if (syscall === 'getaddrinfo') {
    return `HOST=${config.HOST}: the name does not resolve to an address (${code})`;
  }
  if (syscall !== 'listen') return undefined;
  if (code === 'EADDRNOTAVAIL') return `HOST=${config.HOST}: not an address of this machine`;
  // the roles without services listen only on OPS_PORT
  const key =
    role === 'projector' || role === 'webhooks'
      ? 'OPS_PORT'
      : port === config.FEEDBACK_PORT
        ? 'FEEDBACK_PORT'
        : port === config.NOTES_PORT
          ? 'NOTES_PORT'
          : 'FEEDBACK_PORT / NOTES_PORT';
  if (code === 'EADDRINUSE') return `${key}=${port}: another process listens on that port`;
  if (code === 'EACCES') return `${key}=${port}: this user may not listen on that port`;
  return undefined;
}
