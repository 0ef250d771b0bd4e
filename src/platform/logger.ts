/** A small leveled logger writing one line per entry to stderr (stdout stays for CLI output). */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

const levels = { debug: 10, info: 20, warn: 30, error: 40 } as const;
export type LogLevel = keyof typeof levels;

export function createLogger(
  level: LogLevel = 'info',
  write = (line: string) => console.error(line),
): Logger {
  const min = levels[level];
  const log = (at: LogLevel) => (message: string, fields?: Record<string, unknown>) => {
    if (levels[at] < min) return;
    const extra = fields
      ? ` ${JSON.stringify(fields, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}`
      : '';
    write(`${new Date().toISOString()} ${at.toUpperCase()} ${message}${extra}`);
  };
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
