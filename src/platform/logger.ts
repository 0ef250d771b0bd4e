/**
 * The process's logger: pino, one JSON line per entry on stderr (stdout stays for CLI output),
 * or pino-pretty's readable lines when LOG_FORMAT says so (by default when stderr is a terminal).
 * The interface keeps the message first and the fields second, as every caller writes it.
 */
import { pino, type Logger as Pino } from 'pino';
import pretty from 'pino-pretty';

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** a logger whose every entry carries `bindings` (e.g. the service's name) */
  child(bindings: Record<string, unknown>): Logger;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFormat = 'json' | 'pretty' | 'auto';

export interface LoggerOptions {
  format?: LogFormat;
  /** where lines go (default stderr); tests pass a stream to read them back */
  destination?: NodeJS.WritableStream;
}

export function createLogger(level: LogLevel = 'info', options: LoggerOptions = {}): Logger {
  const destination = options.destination ?? process.stderr;
  const format = options.format ?? 'auto';
  const readable = format === 'pretty' || (format === 'auto' && process.stderr.isTTY === true);
  const stream = readable
    ? pretty({ destination, colorize: destination === process.stderr, sync: true })
    : destination;
  return wrap(
    pino(
      {
        level,
        base: { pid: process.pid },
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: { level: (label) => ({ level: label }) },
      },
      stream,
    ),
  );
}

function wrap(log: Pino): Logger {
  return {
    debug: (message, fields) => log.debug(fields ?? {}, message),
    info: (message, fields) => log.info(fields ?? {}, message),
    warn: (message, fields) => log.warn(fields ?? {}, message),
    error: (message, fields) => log.error(fields ?? {}, message),
    child: (bindings) => wrap(log.child(bindings)),
  };
}

export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child: () => silentLogger,
};

/**
 * The sign-in pages (`/oauth/interaction/<uid>…`) and their resume (`/oauth/authorize/<uid>`)
 * carry oidc-provider's interaction id, the `_interaction` cookie's value: whoever reads the log
 * could go on with a sign-in in flight. Logged as `:uid`, like the route that serves it.
 */
const INTERACTION_ID = /(\/(?:interaction|authorize)\/)[^/]+/;

export function loggedPath(path: string): string {
  return path.replace(INTERACTION_ID, '$1:uid');
}
