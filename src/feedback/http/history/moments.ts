/**
 * Moments in the history operations' queries are milliseconds since 1970. One sent in seconds
 * reads as a moment in January 1970 and quietly finds nothing (or everything): a moment before
 * 1973 was almost surely sent in seconds, which get_item_as_of and list_audit_events say alike.
 */
const BEFORE_1973 = 100_000_000_000;

export const looksLikeSeconds = (ms: number): boolean => ms > 0 && ms < BEFORE_1973;

/** A clause to append to a message about `ms`; empty when it does not look like seconds. */
export const secondsHint = (ms: number): string =>
  looksLikeSeconds(ms) ? ' (timestamps are milliseconds since 1970; this looks like seconds)' : '';
