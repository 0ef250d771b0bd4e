/**
 * The one JSON body parser of both services (operations, MCP, OAuth registration, board forms):
 * express.json, refusing text that is not Unicode. RFC 8259 §8.1: JSON exchanged between systems
 * MUST be UTF-8 — decoding an invalid byte gave U+FFFD, and the altered text was stored without a
 * word to the client. §8.2: an escaped lone surrogate (`"\ud83d"`) is valid JSON syntax but no
 * character; stored, it came back in every listing and strict parsers (serde_json) refused the
 * whole page. Both are a 400 in the service's envelope (errors.ts), typed `entity.text.invalid`.
 */
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import express, { type Request, type RequestHandler } from 'express';
import { holdsLoneSurrogate } from '../../commands/shared/text.js';

export const NOT_UTF8 = 'request body is not valid UTF-8 (JSON must be UTF-8, RFC 8259)';
export const LONE_SURROGATE =
  'request body holds a lone surrogate escape (\\ud800-\\udfff without its pair): not a character';
export const INVALID_TEXT = 'entity.text.invalid';

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)/i;

const invalidText = (message: string) =>
  Object.assign(new Error(message), { status: 400, expose: true, type: INVALID_TEXT });

export function jsonBody(options: {
  limit: string | number;
  type?: string | ((req: IncomingMessage) => boolean);
  strict?: boolean;
}): RequestHandler {
  const parse = express.json({
    ...options,
    verify(_req, _res, buffer) {
      if (!isUtf8(buffer)) throw invalidText(NOT_UTF8);
    },
  });
  const { type } = options;
  const parses = (req: Request) =>
    typeof type === 'function' ? type(req) : Boolean(req.is(type ?? 'application/json'));
  return (req, res, next) => {
    // express.json decodes a body declared `charset=utf-16` as UTF-16: ASCII text passed and any
    // other was refused as not UTF-8. JSON is UTF-8 (RFC 8259 §8.1), whatever the label says.
    const charset = CHARSET.exec(req.headers['content-type'] ?? '')?.[1]?.toLowerCase();
    if (charset && charset !== 'utf-8' && charset !== 'utf8' && parses(req)) {
      // as body-parser refuses a charset it cannot decode (errors.ts: 415)
      const message = `unsupported charset "${charset.slice(0, 40).toUpperCase()}": a JSON body must be UTF-8 (RFC 8259)`;
      return next(
        Object.assign(new Error(message), {
          status: 415,
          expose: true,
          type: 'charset.unsupported',
        }),
      );
    }
    parse(req, res, (error?: unknown) => {
      if (error) next(error);
      else if (holdsLoneSurrogate(req.body)) next(invalidText(LONE_SURROGATE));
      else next();
    });
  };
}

/** A body limit in bytes as body-parser reads `limit` (`1mb` is 1,048,576; a number is bytes). */
export function limitInBytes(limit: string | number): number {
  if (typeof limit === 'number') return limit;
  const match = /^(\d+)\s*(b|kb|mb|gb)?$/i.exec(limit.trim());
  if (!match) throw new Error(`body limit ${limit} is not <n>, <n>kb, <n>mb or <n>gb`);
  const unit = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[
    (match[2] ?? 'b').toLowerCase() as 'b'
  ];
  return Number(match[1]) * unit;
}

/**
 * A body given as a value, not read off a request (a hosted MCP tool call's arguments): over
 * `limit` bytes as JSON, the same refusal body-parser gives a REST request's (errors.ts answers
 * it 413 on notes, 400 on the feedback board), so a tool call too large for the API is told what
 * REST tells, whichever server it went through; undefined when it fits.
 */
export function bodyOverLimit(body: unknown, limit: number): Error | undefined {
  if (body === undefined) return undefined;
  const length = Buffer.byteLength(JSON.stringify(body) ?? '');
  if (length <= limit) return undefined;
  return Object.assign(new Error('request entity too large'), {
    status: 413,
    expose: true,
    type: 'entity.too.large',
    length,
    limit,
  });
}
