/**
 * The clock every retry timer and the five-day rule go through, so tests can simulate a day of
 * failures without waiting one. Timers are real timers for the remaining clock time; a test
 * clock that jumps forward calls its listeners, and the dispatcher re-plans at once.
 */
export interface WebhookClock {
  /** milliseconds since the epoch */
  now(): number;
  /** subscribe to jumps of a test clock; returns the unsubscribe function */
  onAdvance?(listener: () => void): () => void;
}

export const systemClock: WebhookClock = { now: () => Date.now() };
