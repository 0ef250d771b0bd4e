/**
 * What the CLI says when something goes wrong: always one line on stderr and exit code 1,
 * never a stack trace (the trace only with LOG_LEVEL=debug, for bugs).
 */
import { DomainError } from '../../commands/shared/errors.js';
import { ConfigError } from '../config/load.js';
import { EventStoreUnavailableError } from '../eventstore/types.js';
import { ProjectionTimeout } from '../read/waiters.js';
import { ReadStoreUnavailableError } from '../readstore/types.js';

/** The command line itself is wrong: unknown command, missing or malformed flag. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The input file (import-items) cannot be used; the message names the bad entries. */
export class InputFileError extends Error {
  override readonly name = 'InputFileError';
}

/** The output file (export) cannot be written: the disk, the folder's permissions. */
export class OutputFileError extends Error {
  override readonly name = 'OutputFileError';
}

/**
 * `rebuild` found a projector (a `projector` process or a running server) holding the lease;
 * `import-workspace`, a webhook worker (a running server, `start:webhooks`) holding its lease.
 */
export class ProjectorRunningError extends Error {
  override readonly name = 'ProjectorRunningError';
}

/** A projector of this command's engine met an event it cannot apply (engine-log.ts). */
export class ReadModelsStoppedError extends Error {
  override readonly name = 'ReadModelsStoppedError';
}

/** Errors whose message is meant for the operator as it stands. */
export function isExpected(error: unknown): error is Error {
  return (
    error instanceof UsageError ||
    error instanceof InputFileError ||
    error instanceof OutputFileError ||
    error instanceof ProjectorRunningError ||
    error instanceof ReadModelsStoppedError ||
    error instanceof DomainError ||
    error instanceof ConfigError ||
    error instanceof EventStoreUnavailableError ||
    error instanceof ReadStoreUnavailableError ||
    error instanceof ProjectionTimeout
  );
}

/** One line: multi-line messages (a config error lists every bad key) are joined with "; ". */
export function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const text = message
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join('; ')
    .replace(/:;/g, ':');
  return isExpected(error) ? `error: ${text}` : `unexpected error: ${text}`;
}
