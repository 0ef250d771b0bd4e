/**
 * The kinds of value a configuration key takes (schema.ts, limit-keys.ts), each refusing what it
 * cannot read with a message naming the form it wants.
 */
import { z } from 'zod';

/**
 * A whole number written in plain decimal digits. Number() would also read `0x10`, `1e3` or
 * ` 8 `, so FEEDBACK_PORT=0x10 listened on port 16; such values are refused instead.
 */
export const whole = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number in decimal digits')
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(min, `must be from ${min} to ${max}`)
        .max(max, `must be from ${min} to ${max}`),
    );
export const port = whole(0, 65535);
/** one of a few words; zod's own message quotes them as a TypeScript union */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(', ')}` });
export const bool = oneOf(['true', 'false', '1', '0', 'yes', 'no']).transform(
  (v) => v === 'true' || v === '1' || v === 'yes',
);
const url = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' });
/**
 * A base URL is an OAuth issuer (RFC 8414 §2: no query, no fragment) or the start of the links
 * a service writes (`<base>/v1/…`); with either the start once failed on an assertion of the
 * OAuth server that named no key.
 */
export const baseUrl = url.refine(
  (value) => !/[?#]/.test(value),
  'must be an http:// or https:// URL without a query (?) or fragment (#)',
);
/** comma-separated http(s) origins: scheme://host[:port], no path */
export const origins = z
  .string()
  .transform((v) =>
    v
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
  )
  .pipe(
    z.array(
      url.refine(
        (u) => URL.canParse(u) && new URL(u).origin === u,
        'each must be an origin: scheme://host[:port]',
      ),
    ),
  );
export const count = (max: number) => whole(1, max);
export const SMTP_URL_FORM = 'must be an smtp:// or smtps:// URL (smtp://user:password@host:port)';
/** one mailbox, bare or with a display name; no line breaks (a header), no second address */
export const MAILBOX = /^(?:[^\r\n<>,]*<[^\s<>@,]+@[^\s<>@,]+>|[^\s<>@,]+@[^\s<>@,]+)$/;
