/**
 * What pauses the projection engine instead of stopping it: a store that cannot be reached
 * (ReadStoreUnavailableError, EventStoreUnavailableError: a MongoDB or KurrentDB restart). The
 * engine subscribes again after a backoff (RETRY_FIRST_MS doubling to RETRY_MAX_MS) and a failed
 * quiet flush is retried after RETRY_MAX_MS. Any other error stops it (a bug to see, not to retry).
 */
import { EventStoreUnavailableError } from '../eventstore/types.js';
import { ReadStoreUnavailableError } from '../readstore/types.js';

export const RETRY_FIRST_MS = 250;
export const RETRY_MAX_MS = 5_000;

export const unreachable = (error: unknown): boolean =>
  error instanceof ReadStoreUnavailableError || error instanceof EventStoreUnavailableError;
