/**
 * The one JSON body parser of both services (operations, MCP, OAuth registration, board forms):
 * express.json, refusing a body that is not UTF-8. RFC 8259 §8.1: JSON exchanged between
 * systems MUST be UTF-8; decoding an invalid byte gives U+FFFD, and the altered text was stored
 * without a word to the client. The refusal is a 400 in the service's envelope (errors.ts).
 */
import { isUtf8 } from 'node:buffer';
import express, { type RequestHandler } from 'express';

export const NOT_UTF8 = 'request body is not valid UTF-8 (JSON must be UTF-8, RFC 8259)';

export function jsonBody(options: {
  limit: string | number;
  type?: string | (() => boolean);
  strict?: boolean;
}): RequestHandler {
  return express.json({
    ...options,
    verify(_req, _res, buffer) {
      if (!isUtf8(buffer)) {
        throw Object.assign(new Error(NOT_UTF8), { status: 400, expose: true });
      }
    },
  });
}
