/**
 * When to try again (issue 18, Svix's schedule): after a failed attempt wait 5 s, 5 min, 30 min,
 * 2 h, 5 h, 10 h, 10 h — eight attempts in all, about 27.6 hours — then the delivery has failed
 * (recover_webhook or redeliver_webhook queue it again with a fresh schedule). A 429 or 503 with
 * Retry-After waits at least that long (at most a day: a larger value is read as a day). A
 * webhook whose every attempt failed for five days is disabled.
 */
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const RETRY_DELAYS_MS: readonly number[] = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
export const DISABLE_AFTER_MS = 5 * 24 * HOUR;
export const RETRY_AFTER_CAP_MS = 24 * HOUR;
export const ATTEMPT_TIMEOUT_MS = 15 * SECOND;

/**
 * When the next attempt is due after `failures` failed attempts in a row (1 = the first failed),
 * or null when the schedule is used up.
 */
export function nextAttemptAt(
  failures: number,
  now: number,
  retryAfterMs: number | null,
): number | null {
  if (failures >= MAX_ATTEMPTS) return null;
  const planned = RETRY_DELAYS_MS[failures - 1] ?? RETRY_DELAYS_MS.at(-1)!;
  return now + Math.max(planned, Math.min(retryAfterMs ?? 0, RETRY_AFTER_CAP_MS));
}

/**
 * The three forms of an HTTP-date a recipient must accept (RFC 9110 §5.6.7): IMF-fixdate, the
 * obsolete RFC 850 and asctime forms. Date.parse alone reads far more: "3600.5" is the year 3600.
 */
const WEEKDAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const TIME = '\\d{2}:\\d{2}:\\d{2}';
const HTTP_DATE = new RegExp(
  `^(?:${WEEKDAY}, \\d{2} ${MONTH} \\d{4} ${TIME} GMT` +
    `|(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \\d{2}-${MONTH}-\\d{2} ${TIME} GMT` +
    `|${WEEKDAY} ${MONTH} [ \\d]\\d ${TIME} \\d{4})$`,
);

/** RFC 9110 Retry-After: delay-seconds or an HTTP-date; anything else is ignored. */
export function parseRetryAfter(value: string | undefined, now: number): number | null {
  if (!value) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * SECOND;
  if (!HTTP_DATE.test(text)) return null;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** What one attempt's answer means for the delivery and the webhook. */
export type Verdict =
  | { kind: 'delivered' }
  /** 410 Gone: the receiver asks us to stop; the webhook is disabled, the message stays queued */
  | { kind: 'gone' }
  | { kind: 'failed'; retryAfterMs: number | null };

export function verdictOf(
  status: number | null,
  retryAfter: string | undefined,
  now: number,
): Verdict {
  if (status !== null && status >= 200 && status < 300) return { kind: 'delivered' };
  if (status === 410) return { kind: 'gone' };
  const honoured = status === 429 || status === 503 ? parseRetryAfter(retryAfter, now) : null;
  return { kind: 'failed', retryAfterMs: honoured };
}
