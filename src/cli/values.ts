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

/**
 * Milliseconds since the epoch of a text starting with a date that exists (Date.parse rolls
 * 2027-02-30 over to 2 March); NaN otherwise.
 */
export function calendarTime(text: string): number {
  const ms = Date.parse(text);
  const [year, month, day] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  // day 0 of the next month is this month's last; setUTCFullYear, because Date.UTC reads the
  // years 0-99 as 1900-1999 (0000-02-29 exists, 1900-02-29 does not)
  const lastDay = new Date(0);
  lastDay.setUTCFullYear(year, month, 0);
  return month >= 1 && month <= 12 && day >= 1 && day <= lastDay.getUTCDate() ? ms : Number.NaN;
}

/** A date (2027-01-01) or a full ISO time; stored as milliseconds since the epoch. */
export const DateFlag = z.string().transform((text, ctx) => {
  const ms = /^\d{4}-\d{2}-\d{2}([T ].*)?$/.test(text) ? calendarTime(text) : Number.NaN;
  if (Number.isNaN(ms)) {
    ctx.addIssue({ code: 'custom', message: 'expected a date like 2027-01-01 or an ISO time' });
    return z.NEVER;
  }
  return ms;
});
