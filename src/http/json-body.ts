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
