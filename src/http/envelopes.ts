/**
 * Error envelopes: how each service shapes every 4xx/5xx answer.
 *
 * Feedback (spec 000 "Errors"): exactly `{error, code}`, codes from the spec's list. Its
 * operations declare only 400/401/403/404, so transport problems fold into those:
 *   wrong Content-Type, oversize body, malformed JSON  -> 400 invalid-argument
 *   unknown route, wrong method on a known path        -> 404 not-found (with `Allow` on the latter)
 *   failed-precondition (state forbids the command)    -> 409 failed-precondition
 *   already-exists                                     -> 409 already-exists
 *   conflict (concurrent writer won, idempotency-key reuse with a different request)
 *                                                      -> 409 failed-precondition
 *   precondition-failed (If-Match did not match)       -> 412 failed-precondition
 *   resource-exhausted                                 -> 429 (+ Retry-After when known)
 *   unavailable (read models lagging, a burst outlasting the retry deadline)
 *                                                      -> 503 resource-exhausted + Retry-After
 *   internal                                           -> 500 internal
 *
 * Notes (spec 001 "Errors"): `{error}` with "the matching HTTP status", so the precise ones:
 *   415 wrong Content-Type, 413 oversize body, 405 wrong method (with `Allow`), 404 unknown route,
 *   409 failed-precondition / already-exists, 412 conflict and precondition-failed (in the notes
 *   service a conflict means a lost update: If-Match, or a concurrent PUT that won).
 */
import { z } from 'zod';
import type { ErrorKind } from './errors.js';

export interface ErrorEnvelope {
  readonly name: string;
  /** component schema used on every declared error status in OpenAPI */
  readonly schema: z.ZodType;
  status(kind: ErrorKind): number;
  body(kind: ErrorKind, message: string): Record<string, string>;
}

export const FEEDBACK_ERROR_CODES = [
  'invalid-argument',
  'unauthenticated',
  'permission-denied',
  'not-found',
  'failed-precondition',
  'already-exists',
  'resource-exhausted',
  'internal',
] as const;
export type FeedbackErrorCode = (typeof FEEDBACK_ERROR_CODES)[number];

const FEEDBACK: Record<ErrorKind, [number, FeedbackErrorCode]> = {
  'invalid-argument': [400, 'invalid-argument'],
  unauthenticated: [401, 'unauthenticated'],
  'permission-denied': [403, 'permission-denied'],
  'not-found': [404, 'not-found'],
  'failed-precondition': [409, 'failed-precondition'],
  'already-exists': [409, 'already-exists'],
  conflict: [409, 'failed-precondition'],
  'precondition-failed': [412, 'failed-precondition'],
  'resource-exhausted': [429, 'resource-exhausted'],
  unavailable: [503, 'resource-exhausted'],
  'unsupported-media-type': [400, 'invalid-argument'],
  'payload-too-large': [400, 'invalid-argument'],
  'method-not-allowed': [404, 'not-found'],
  'route-not-found': [404, 'not-found'],
  internal: [500, 'internal'],
};

const NOTES: Record<ErrorKind, number> = {
  'invalid-argument': 400,
  unauthenticated: 401,
  'permission-denied': 403,
  'not-found': 404,
  'failed-precondition': 409,
  'already-exists': 409,
  conflict: 412,
  'precondition-failed': 412,
  'resource-exhausted': 429,
  unavailable: 503,
  'unsupported-media-type': 415,
  'payload-too-large': 413,
  'method-not-allowed': 405,
  'route-not-found': 404,
  internal: 500,
};

/** Built per call (no shared zod instance between services' OpenAPI registries). */
export function feedbackEnvelope(): ErrorEnvelope {
  const schema = z
    .object({
      error: z.string().meta({ description: 'human-readable message' }),
      code: z.enum(FEEDBACK_ERROR_CODES),
    })
    .strict();
  return {
    name: 'feedback',
    schema,
    status: (kind) => FEEDBACK[kind][0],
    body: (kind, message) => ({ error: message, code: FEEDBACK[kind][1] }),
  };
}

export function notesEnvelope(): ErrorEnvelope {
  const schema = z
    .object({ error: z.string().meta({ description: 'human-readable message' }) })
    .strict();
  return {
    name: 'notes',
    schema,
    status: (kind) => NOTES[kind],
    body: (_kind, message) => ({ error: message }),
  };
}
