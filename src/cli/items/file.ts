/**
 * The import file: a JSON array of feedback items. Every entry is checked before anything is
 * written, and every bad entry is reported by its number (1-based), so one run tells the
 * operator everything to fix.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ItemStatus } from '../../feedback/http/schemas.js';
import { InputFileError } from '../errors.js';

const MAX_INT = 9007199254740991;

const CreatedAt = z.union([
  z.number().int().min(0).max(MAX_INT),
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/, {
      message: 'expected an ISO date/time or milliseconds since the epoch',
    })
    .transform((text, ctx) => {
      const ms = Date.parse(text);
      if (Number.isNaN(ms)) {
        ctx.addIssue({ code: 'custom', message: 'not a real date' });
        return z.NEVER;
      }
      return ms;
    }),
]);

export const ImportRow = z
  .object({
    title: z.string().trim().max(500).optional(),
    body: z.string().trim().min(1).max(50_000),
    requester: z
      .object({
        email: z.email({ message: 'not a valid e-mail address' }).optional(),
        displayName: z.string().trim().min(1).max(200).optional(),
      })
      .strict()
      .default({}),
    status: ItemStatus.default('new'),
    tags: z.array(z.string().trim().min(1).max(60)).max(20).default([]),
    plusOnes: z.number().int().min(0).max(10_000).default(0),
    createdAt: CreatedAt.optional(),
  })
  .strict();
export type ImportRow = z.infer<typeof ImportRow>;

/** How many bad entries one error line names before it says "and N more". */
const SHOWN = 8;

export function readImportFile(path: string): ImportRow[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputFileError(`cannot read ${path}${code ? ` (${code})` : ''}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new InputFileError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
  return parseImportRows(json, path);
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
