/**
 * The process's real logger (pino, JSON lines) writing into memory, so a test reads back the
 * lines an operator would see.
 */
import { PassThrough } from 'node:stream';
import { createLogger, type Logger, type LogLevel } from '../../src/platform/logger.js';

export interface LogLines {
  logger: Logger;
  lines: Record<string, unknown>[];
  /** the first line `match` accepts, waiting up to `ms` for it to be written */
  find(
    match: (line: Record<string, unknown>) => boolean,
    ms?: number,
  ): Promise<Record<string, unknown> | undefined>;
}

export function logLines(level: LogLevel = 'info'): LogLines {
  const lines: Record<string, unknown>[] = [];
  const stream = new PassThrough();
  let buffered = '';
  stream.on('data', (chunk) => {
    buffered += chunk;
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    for (const part of parts) if (part) lines.push(JSON.parse(part));
  });
  return {
    logger: createLogger(level, { format: 'json', destination: stream }),
    lines,
    async find(match, ms = 2_000) {
      const until = performance.now() + ms;
      for (;;) {
        const line = lines.find(match);
        if (line || performance.now() > until) return line;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}
