/**
 * The one place where typed errors become HTTP answers. Each service picks an envelope
 * (src/http/envelopes.ts); the envelope fixes the status and body for every error kind.
 */
import { Conflict, DomainError, type DomainErrorKind } from '../../commands/shared/errors.js';
import { EventStoreUnavailableError, WrongExpectedRevisionError } from '../eventstore/types.js';
import { ReadStoreUnavailableError } from '../readstore/types.js';

/**
 * Error kinds the HTTP layer answers: the domain kinds, plus transport problems that never reach
 * a handler, plus `precondition-failed` (an If-Match that did not match) and `internal`.
 */
export type ErrorKind =
  | DomainErrorKind
  | 'precondition-failed'
  | 'unsupported-media-type'
  | 'payload-too-large'
  | 'method-not-allowed'
  | 'route-not-found'
  | 'internal';

/** Thrown by `assertIfMatch`: a lost update. A Conflict, so code that only knows domain errors still copes. */
export class PreconditionFailed extends Conflict {}

/** A transport-level problem found before any handler runs (content type, size, routing). */
export class HttpProblem extends Error {
  constructor(
    readonly kind:
      | 'unsupported-media-type'
      | 'payload-too-large'
      | 'method-not-allowed'
      | 'route-not-found',
    message: string,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

const extraHeaders = Symbol('http.responseHeaders');
type WithHeaders = { [extraHeaders]?: Record<string, string> };

/**
 * Attach response headers to any error (e.g. `WWW-Authenticate: Bearer error="insufficient_scope"`
 * on a PermissionDenied) without widening the domain error classes.
 */
export function withResponseHeaders<E extends Error>(error: E, headers: Record<string, string>): E {
  const carrier = error as E & WithHeaders;
  carrier[extraHeaders] = { ...carrier[extraHeaders], ...headers };
  return error;
}

export interface ResolvedError {
  kind: ErrorKind;
  /** safe to show the client; for `internal` a generic sentence */
  message: string;
  headers: Record<string, string>;
}

/** Errors raised by express's own body parser and other http-errors style middleware. */
interface HttpErrorLike {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
  message: string;
  /** body-parser's bound, in bytes, on `entity.too.large` */
  limit?: number;
}

const tooLarge = (limit: unknown) =>
  typeof limit === 'number'
    ? `request body is too large: at most ${limit.toLocaleString('en-US')} bytes`
    : 'request body is too large';

function fromHttpErrorLike(err: HttpErrorLike): ResolvedError | undefined {
  const status = err.status ?? err.statusCode;
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  switch (err.type) {
    case 'entity.too.large':
      return { kind: 'payload-too-large', message: tooLarge(err.limit), headers: {} };
    case 'entity.parse.failed':
      return { kind: 'invalid-argument', message: parseFailure(err), headers: {} };
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return { kind: 'unsupported-media-type', message: err.message, headers: {} };
  }
  // zlib's own wording ("incorrect header check") tells a client nothing about its request
  if (/^Z_|^ERR__ERROR|BROTLI/.test(String((err as { code?: unknown }).code))) {
    return {
      kind: 'invalid-argument',
      message: 'request body could not be decompressed as its Content-Encoding says',
      headers: {},
    };
  }
  if (status === 404) return { kind: 'route-not-found', message: 'not found', headers: {} };
  if (status === 413)
    return { kind: 'payload-too-large', message: 'request body is too large', headers: {} };
  if (status === 415) return { kind: 'unsupported-media-type', message: err.message, headers: {} };
  return {
    kind: 'invalid-argument',
    message: err.expose ? err.message : 'invalid request',
    headers: {},
  };
}

/**
 * The JSON parser refuses anything but an object or array at the top: `null` or `"x"` are valid
 * JSON, just not a request body.
 */
function parseFailure(err: HttpErrorLike & { body?: unknown }): string {
  if (typeof err.body === 'string') {
    try {
      JSON.parse(err.body);
      return 'request body must be a JSON object';
    } catch {}
  }
  return 'request body is not valid JSON';
}

/** Classify anything thrown. Unknown errors become `internal`; the caller logs them. */
export function resolveError(err: unknown): ResolvedError {
  const headers = { ...(err as WithHeaders | null)?.[extraHeaders] };
  if (err instanceof PreconditionFailed) {
    return { kind: 'precondition-failed', message: err.message, headers };
  }
  if (err instanceof DomainError) {
    const retryAfter = (err as { retryAfterSeconds?: number }).retryAfterSeconds;
    if (
      (err.kind === 'resource-exhausted' || err.kind === 'unavailable') &&
      retryAfter !== undefined
    ) {
      headers['Retry-After'] = String(Math.max(0, Math.ceil(retryAfter)));
    }
    return { kind: err.kind, message: err.message, headers };
  }
  if (err instanceof HttpProblem) {
    return { kind: err.kind, message: err.message, headers: { ...err.headers, ...headers } };
  }
  if (err instanceof ReadStoreUnavailableError || err instanceof EventStoreUnavailableError) {
    // the driver reconnects by itself: the request may be sent again shortly
    return {
      kind: 'unavailable',
      message: 'the service cannot reach its database right now; try again shortly',
      headers: { ...headers, 'Retry-After': '5' },
    };
  }
  if (err instanceof WrongExpectedRevisionError) {
    return { kind: 'conflict', message: 'a concurrent change won; retry the request', headers };
  }
  if (err instanceof URIError) {
    return {
      kind: 'invalid-argument',
      message: 'the request path has invalid percent-encoding',
      headers,
    };
  }
  if (err instanceof Error) {
    const known = fromHttpErrorLike(err as HttpErrorLike);
    if (known) return known;
  }
  return { kind: 'internal', message: 'internal error', headers };
}
