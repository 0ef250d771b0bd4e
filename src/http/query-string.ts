/**
 * The query parser of both services' apps (Express's `query parser` setting): node:querystring,
 * as Express's default, but a value or name whose percent-escapes are not UTF-8 (`?q=%FF`, a
 * Latin-1 form's `caf%E9`) is refused with 400 instead of being searched for as U+FFFD without a
 * word — as a body that is not UTF-8 is (json-body.ts) and a path segment is (route-table.ts).
 */
import { isUtf8 } from 'node:buffer';
import { type ParsedUrlQuery, parse } from 'node:querystring';

export const QUERY_NOT_UTF8 =
  'the query string is not valid UTF-8 once its percent-escapes are decoded';

export function strictQuery(text: string): ParsedUrlQuery {
  let undecodable = false;
  const parsed = parse(text, '&', '=', {
    decodeURIComponent(part) {
      const bytes = percentDecoded(part);
      if (!isUtf8(bytes)) undecodable = true;
      return bytes.toString('utf8');
    },
  });
  if (undecodable) {
    throw Object.assign(new Error(QUERY_NOT_UTF8), { status: 400, expose: true });
  }
  return parsed;
}

/** The bytes `part` stands for: each `%XX` one byte, anything else as its UTF-8 (a stray `%` too). */
function percentDecoded(part: string): Buffer {
  const source = Buffer.from(part, 'utf8');
  const bytes = Buffer.alloc(source.length);
  let length = 0;
  for (let i = 0; i < source.length; i++) {
    const hex = source[i] === 0x25 ? source.toString('latin1', i + 1, i + 3) : '';
    if (/^[0-9a-fA-F]{2}$/.test(hex)) {
      bytes[length++] = Number.parseInt(hex, 16);
      i += 2;
    } else bytes[length++] = source[i]!;
  }
  return bytes.subarray(0, length);
}
