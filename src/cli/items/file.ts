/**
 * The import file: a JSON array of feedback items. Every entry is checked before anything is
 * written, and every bad entry is reported by its number (1-based), so one run tells the
 * operator everything to fix.
 */
import { isUtf8 } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { InvalidArgument } from '../../../commands/shared/errors.js';
import { holdsLoneSurrogate, nameText, readableText } from '../../../commands/shared/text.js';
import { ItemStatus } from '../../feedback/http/schemas.js';
import { InputFileError } from '../errors.js';
import { readCalendarTime } from '../values.js';

const MAX_INT = 9007199254740991;
/**
 * How far ahead of this machine's clock a creation time may be: a date of today written where it
 * is already tomorrow (bare dates are midnight UTC), another machine's clock. Such a time is
 * recorded as the import's own (submitFeedback), never after the item's first change.
 */
const CLOCK_SKEW_MS = 24 * 60 * 60 * 1000;

/**
 * Item times are milliseconds since 1970 and never negative (the API's Timestamp): an earlier
 * date would be imported, then break every answer that shows the item.
 */
const BEFORE_1970 = 'before 1970-01-01, the earliest time an item can have';

/** A creation time in the past (a little skew allowed): an import records what happened. */
function notFuture(ms: number, ctx: z.core.$RefinementCtx): void {
  if (ms > Date.now() + CLOCK_SKEW_MS) ctx.addIssue({ code: 'custom', message: 'in the future' });
}

const CreatedAt = z.union([
  z.number().int().min(0, { message: BEFORE_1970 }).max(MAX_INT).superRefine(notFuture),
  z.string().transform((text, ctx) => {
    const time = readCalendarTime(
      text,
      'expected a date like 2025-01-08, a time like 2025-01-08T09:12:00Z or milliseconds since the epoch',
    );
    if ('problem' in time) {
      ctx.addIssue({ code: 'custom', message: time.problem });
      return z.NEVER;
    }
    if (time.ms < 0) {
      ctx.addIssue({ code: 'custom', message: BEFORE_1970 });
      return z.NEVER;
    }
    notFuture(time.ms, ctx);
    return time.ms;
  }),
]);

/**
 * A string checked by the rule the service applies to the same field (commands/shared/text.ts),
 * so a file the service would refuse part-way is refused whole, before anything is written.
 */
function followsRule(
  rule: (text: string, field: string, max: number) => string,
  field: string,
  max: number,
) {
  return (text: string, ctx: z.core.$RefinementCtx<string>) => {
    try {
      if (text !== '') rule(text, field, max);
    } catch (error) {
      if (!(error instanceof InvalidArgument)) throw error;
      ctx.addIssue({ code: 'custom', message: error.message });
    }
  };
}

/** JSON may spell half of a surrogate pair (\ud800); the API refuses such text, so does this. */
const Text = z.string().refine((text) => !holdsLoneSurrogate(text), {
  message: 'holds half of a surrogate pair (not valid Unicode)',
});

export const ImportRow = z
  .object({
    title: Text.trim()
      .max(500)
      .superRefine(followsRule(nameText, 'title', 500))
      .optional(),
    body: Text.trim()
      .min(1)
      .max(50_000)
      .superRefine(followsRule(readableText, 'body', 50_000)),
    requester: z
      .object({
        email: z.email({ message: 'not a valid e-mail address' }).optional(),
        displayName: Text.trim().min(1).max(200).optional(),
      })
      .strict()
      .default({}),
    status: ItemStatus.default('new'),
    tags: z
      .array(
        Text.trim()
          .min(1)
          .max(60)
          .superRefine(followsRule(nameText, 'tag', 60)),
      )
      .max(20)
      .default([]),
    plusOnes: z.number().int().min(0).max(10_000).default(0),
    createdAt: CreatedAt.optional(),
  })
  .strict();
export type ImportRow = z.infer<typeof ImportRow>;

/** How many bad entries one error line names before it says "and N more". */
const SHOWN = 8;

/** `shown`: the file as the operator named it, for the messages */
export function readImportFile(path: string, shown = path): ImportRow[] {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputFileError(`cannot read ${shown}${code ? ` (${code})` : ''}`);
  }
  // the API's rule for text: a Windows-1252 export decoded as UTF-8 would be imported with
  // U+FFFD in place of its accents, without a word
  if (!isUtf8(bytes)) {
    throw new InputFileError(
      `${shown} is not valid UTF-8 (perhaps saved as Windows-1252 or Latin-1): save it as UTF-8`,
    );
  }
  // a byte-order mark (Notepad's UTF-8 default) is no part of the JSON
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new InputFileError(`${shown} is not valid JSON: ${(error as Error).message}`);
  }
  return parseImportRows(json, shown);
}

export function parseImportRows(json: unknown, source: string): ImportRow[] {
  if (!Array.isArray(json)) throw new InputFileError(`${source} must hold a JSON array of items`);
  const rows: ImportRow[] = [];
  const problems: string[] = [];
  json.forEach((entry, index) => {
    const parsed = ImportRow.safeParse(entry);
    if (parsed.success) rows.push(parsed.data);
    else problems.push(`#${index + 1} ${describeIssue(parsed.error.issues[0]!, entry)}`);
  });
  if (problems.length > 0) {
    const more = problems.length > SHOWN ? `; and ${problems.length - SHOWN} more` : '';
    throw new InputFileError(
      `${source}: ${problems.length} invalid ${problems.length === 1 ? 'entry' : 'entries'} ` +
        `(numbered from 1), nothing imported: ${problems.slice(0, SHOWN).join('; ')}${more}`,
    );
  }
  return rows;
}

function describeIssue(issue: z.core.$ZodIssue, entry: unknown): string {
  if (issue.code === 'invalid_union') {
    // a number or a date (createdAt): say what was wrong with the kind of value given
    const branch = issue.errors.find((errors) => errors[0] && errors[0].code !== 'invalid_type');
    if (branch?.[0]) {
      return describeIssue({ ...branch[0], path: [...issue.path, ...branch[0].path] }, entry);
    }
  }
  const where = issue.path.length > 0 ? issue.path.join('.') : 'entry';
  // zod leaves the offending value out of its issues, so the entry says whether it was given
  if (issue.code === 'invalid_type') {
    if (valueAt(entry, issue.path) === undefined) return `${where}: missing`;
    return `${where}: must be ${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}`;
  }
  if (issue.code === 'unrecognized_keys') return `unknown field ${issue.keys.join(', ')}`;
  return `${where}: ${issue.message}`;
}

function valueAt(entry: unknown, path: readonly PropertyKey[]): unknown {
  let value = entry;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}
