/**
 * What a CLI command's projection engine may say. The command's answer is stdout and its one
 * error line stderr, so a notice after which the engine goes on (a store paused, a flush retried)
 * is one line, and the failure that stops it (an event a projector cannot apply) is not printed
 * at all: it rejects the command's wait for the read models, and `failed` turns it into the
 * command's own error line. Never a stack.
 */
import { ReadModelsStoppedError } from './errors.js';

/** How the engine's message for the failure that stops it begins (read/projection-engine.ts). */
const STOPPED = 'projection engine stopped: ';

export interface EngineLog {
  logger: { info(message: string): void; error(message: string): void };
  /** the error to throw for one the engine's wait rejected with */
  failed(error: unknown): unknown;
}

export function engineLog(
  print: (line: string) => void = (line) => console.error(line),
): EngineLog {
  let stopped: string | undefined;
  return {
    logger: {
      info() {},
      error(message) {
        const line = String(message).split('\n')[0]!;
        if (line.startsWith(STOPPED)) stopped ??= line.slice(STOPPED.length);
        else print(line);
      },
    },
    failed(error) {
      if (stopped === undefined) return error;
      return new ReadModelsStoppedError(
        `the read models stopped at an event of the log they cannot apply (${stopped}); ` +
          'a server on this data stops there too',
      );
    },
  };
}
