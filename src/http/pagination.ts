/**
 * Paging pieces both services reuse: bounded page-size parameters and opaque cursors.
 *
 * Cursors are `<payload>.<signature>`: base64url JSON plus an HMAC-SHA256 (truncated to 128 bits)
 * over the payload and a scope string. Clients cannot read meaning into them and any edit, or a
 * cursor from another listing (other scope), is a 400 invalid-argument, never a 500 or a silent
 * restart from the top.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { InvalidArgument } from '../../commands/shared/errors.js';

export interface SizeBounds {
  min?: number;
  max: number;
  default?: number;
  description?: string;
}

/** An integer query parameter with bounds (query strings are coerced by the registry). */
export function boundedInt(bounds: SizeBounds & { default: number }): z.ZodDefault<z.ZodNumber>;
export function boundedInt(bounds: SizeBounds): z.ZodOptional<z.ZodNumber>;
export function boundedInt({
  min = 1,
  max,
  default: fallback,
  description,
}: SizeBounds): BoundedInt {
  const base = z.number().int().min(min).max(max);
  const described = description ? base.meta({ description }) : base;
  return fallback === undefined ? described.optional() : described.default(fallback);
}

type BoundedInt = z.ZodDefault<z.ZodNumber> | z.ZodOptional<z.ZodNumber>;

/** e.g. `pageSize: pageSizeParam({ max: 200, default: 50 })` */
export function pageSizeParam(bounds: SizeBounds & { default: number }): z.ZodDefault<z.ZodNumber>;
export function pageSizeParam(bounds: SizeBounds): z.ZodOptional<z.ZodNumber>;
export function pageSizeParam(bounds: SizeBounds): BoundedInt {
  return boundedInt({ description: `page size, ${bounds.min ?? 1} to ${bounds.max}`, ...bounds });
}

/** e.g. `limit: limitParam({ max: 50, default: 10 })` */
export function limitParam(bounds: SizeBounds & { default: number }): z.ZodDefault<z.ZodNumber>;
export function limitParam(bounds: SizeBounds): z.ZodOptional<z.ZodNumber>;
export function limitParam(bounds: SizeBounds): BoundedInt {
  return boundedInt({
    description: `how many results, ${bounds.min ?? 1} to ${bounds.max}`,
    ...bounds,
  });
}

/** An opaque cursor as a query parameter (e.g. `cursor`, `pageToken`). */
export const cursorParam = (
  description = 'opaque cursor from a previous page; pass it back unchanged',
) => z.string().min(1).max(4096).meta({ description }).optional();

/** The `nextCursor` of a page whose listing takes `cursor`: how to get the next page, and the end. */
export const nextCursorOf = () =>
  z.string().nullable().meta({ description: 'pass back to get the next page; null at the end' });

/**
 * How to page, said in a paged operation's description (a tool's description is what an
 * assistant reads; the answer's schema it may never see): `same` names what must not change
 * between pages (the filters).
 */
export const howToPage = (same?: string) =>
  `To page, pass \`nextCursor\` back as \`cursor\`${same ? ` with the same ${same}` : ''} (\`pageSize\` may change) until it is null.`;

/** `{ items: [T], <cursorField>: string | null }` */
export function pageOf<T extends z.ZodType, K extends string = 'nextCursor'>(
  item: T,
  cursorField?: K,
) {
  return z.object({
    items: z.array(item),
    [cursorField ?? 'nextCursor']: nextCursorOf(),
  }) as unknown as z.ZodObject<{ items: z.ZodArray<T> } & Record<K, z.ZodNullable<z.ZodString>>>;
}

export interface CursorOptions {
  /** binds a cursor to one listing (e.g. `items:<workspace>/<product>`); another scope rejects it */
  scope?: string;
  /** parameter name used in the error message (default `cursor`) */
  field?: string;
  /** the answer's field that carries the next cursor, named in the error (default `nextCursor`) */
  issuedAs?: string;
}

export interface CursorCodec {
  encode(value: unknown, options?: CursorOptions): string;
  /** returns the encoded value; throws InvalidArgument when the cursor was edited or forged */
  decode(cursor: string, options?: CursorOptions): unknown;
  /** decode and check the payload's shape */
  decodeAs<T>(cursor: string, schema: z.ZodType<T>, options?: CursorOptions): T;
}

const SIGNATURE_BYTES = 16;

export function createCursorCodec(secret: string | Uint8Array): CursorCodec {
  const key = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : Buffer.from(secret);
  if (key.length < 16) throw new TypeError('cursor secret must be at least 16 bytes');

  const sign = (payload: string, scope: string) =>
    createHmac('sha256', key)
      .update(scope)
      .update('\0')
      .update(payload)
      .digest()
      .subarray(0, SIGNATURE_BYTES);

  // one text for every cause (a scope does not say which listing signed a cursor): each cause
  // and both ways on, so a caller that changed a filter is not told only to resend the cursor
  const invalid = (options?: CursorOptions) => {
    const field = options?.field ?? 'cursor';
    return new InvalidArgument(
      `${field} is not one this listing issued for these filters (it was edited, comes from another listing, or was issued with other filters); pass the previous answer's ${options?.issuedAs ?? 'nextCursor'} back unchanged with the same filters, or leave ${field} out to start from the first page`,
    );
  };

  function decode(cursor: string, options?: CursorOptions): unknown {
    const dot = cursor.indexOf('.');
    if (dot <= 0 || dot !== cursor.lastIndexOf('.')) throw invalid(options);
    const payload = cursor.slice(0, dot);
    // Compare the text, not decoded bytes: base64url decoding ignores a final character's spare
    // bits, so an edited last character could otherwise still pass.
    const given = Buffer.from(cursor.slice(dot + 1), 'utf8');
    const expected = Buffer.from(sign(payload, options?.scope ?? '').toString('base64url'), 'utf8');
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      throw invalid(options);
    try {
      return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      throw invalid(options);
    }
  }

  return {
    encode(value, options) {
      const payload = Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
      return `${payload}.${sign(payload, options?.scope ?? '').toString('base64url')}`;
    },
    decode,
    decodeAs(cursor, schema, options) {
      const parsed = schema.safeParse(decode(cursor, options));
      // Only reachable with a genuine cursor from an older layout: still the client's to restart.
      if (!parsed.success) throw invalid(options);
      return parsed.data;
    },
  };
}
