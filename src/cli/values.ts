/**
 * Flag value schemas. Slugs and product keys use the API's own schemas (one definition of what
 * a valid slug is), so the CLI refuses exactly what the API would refuse.
 */
import { z } from 'zod';
import { ProductKey, Slug, Visibility } from '../feedback/http/schemas.js';

export const EmailFlag = z.email({ message: 'not a valid e-mail address' });
export const SlugFlag = Slug;
export const ProductKeyFlag = ProductKey;
export const VisibilityFlag = z.enum(Visibility.options, {
  message: `must be ${Visibility.options.join(' or ')}`,
});
export const RoleFlag = z.enum(['admin', 'member'], { message: 'must be admin or member' });
export const NameFlag = z
  .string()
  .trim()
  .min(1, { message: 'must not be empty' })
  .max(200, { message: 'at most 200 characters' });

/** A date, then optionally a time: hours and minutes, seconds and a fraction, an offset. */
const DATE_TIME =
  /^\d{4}-\d{2}-\d{2}(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?)?$/;

const NEEDS_OFFSET =
  "a time needs its offset: Z for UTC or one like +01:00 (without, it would be read in this machine's time zone)";

/**
 * One rule for every date the CLI reads (flags, import files): a bare date is midnight UTC; a
 * time must say its offset. Date.parse reads a time without one in this machine's time zone,
 * unlike the bare date, so the same file or flag meant other moments on other servers.
 * `shape` is the message for text that is neither.
 */
export function readCalendarTime(
  text: string,
  shape: string,
): { ms: number } | { problem: string } {
  const match = DATE_TIME.exec(text);
  if (!match) return { problem: shape };
  if (match[1] !== undefined && match[2] === undefined) return { problem: NEEDS_OFFSET };
  const ms = calendarTime(text);
  return Number.isNaN(ms) ? { problem: 'not a real date' } : { ms };
}

/**
 * Milliseconds since the epoch of a text starting with a date that exists (Date.parse rolls
 * 2027-02-30 over to 2 March); NaN otherwise.
 */
function calendarTime(text: string): number {
  const ms = Date.parse(text);
  const [year, month, day] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  // day 0 of the next month is this month's last; setUTCFullYear, because Date.UTC reads the
  // years 0-99 as 1900-1999 (0000-02-29 exists, 1900-02-29 does not)
  const lastDay = new Date(0);
  lastDay.setUTCFullYear(year, month, 0);
  return month >= 1 && month <= 12 && day >= 1 && day <= lastDay.getUTCDate() ? ms : Number.NaN;
}

/** A date (2027-01-01, midnight UTC) or a time with its offset; milliseconds since the epoch. */
export const DateFlag = z.string().transform((text, ctx) => {
  const time = readCalendarTime(
    text,
    'expected a date like 2027-01-01 or a time like 2027-01-01T09:30Z',
  );
  if ('problem' in time) {
    ctx.addIssue({ code: 'custom', message: time.problem });
    return z.NEVER;
  }
  return time.ms;
});
