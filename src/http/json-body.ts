/**
 * The one JSON body parser of both services (operations, MCP, OAuth registration, board forms):
 * express.json, refusing text that is not Unicode. RFC 8259 §8.1: JSON exchanged between systems
 * MUST be UTF-8 — decoding an invalid byte gave U+FFFD, and the altered text was stored without a
 * word to the client. §8.2: an escaped lone surrogate (`"\ud83d"`) is valid JSON syntax but no
 * character; stored, it came back in every listing and strict parsers (serde_json) refused the
 * whole page. Both are a 400 in the service's envelope (errors.ts), typed `entity.text.invalid`.
 */
import { isUtf8 } from 'node:buffer';
import express, { type RequestHandler } from 'express';
import { holdsLoneSurrogate } from '../../commands/shared/text.js';

export const NOT_UTF8 = 'request body is not valid UTF-8 (JSON must be UTF-8, RFC 8259)';
export const LONE_SURROGATE =
  'request body holds a lone surrogate escape (\\ud800-\\udfff without its pair): not a character';
export const INVALID_TEXT = 'entity.text.invalid';

const invalidText = (message: string) =>
  Object.assign(new Error(message), { status: 400, expose: true, type: INVALID_TEXT });

export function jsonBody(options: {
  limit: string | number;
  type?: string | (() => boolean);
  strict?: boolean;
}): RequestHandler {
  const parse = express.json({
    ...options,
    verify(_req, _res, buffer) {
      if (!isUtf8(buffer)) throw invalidText(NOT_UTF8);
    },
  });
  return (req, res, next) =>
    parse(req, res, (error?: unknown) => {
      if (error) next(error);
      else if (holdsLoneSurrogate(req.body)) next(invalidText(LONE_SURROGATE));
      else next();
    });
}
