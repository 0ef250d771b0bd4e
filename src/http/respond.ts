/**
 * Writing answers: success bodies and the service's error envelope. Bodies are serialized
 * directly (no res.json / express ETag hashing) because this is on every request's path.
 */
import { RawJson } from '../../projections/shared/raw-json.js';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorEnvelope } from './envelopes.js';
import { EventStoreUnavailableError, isWellFormedCorrelationId } from '../eventstore/types.js';
import { ReadStoreUnavailableError } from '../readstore/types.js';
import { type ResolvedError, resolveError } from './errors.js';

export interface HttpLogger {
  warn(message: string, fields: Record<string, unknown>): void;
  error(message: string, fields: Record<string, unknown>): void;
}

/** One JSON line on stderr; the stack goes to the log, never to the client. */
export function consoleLogger(): HttpLogger {
  return {
    warn(message, fields) {
      console.error(JSON.stringify({ level: 'warn', message, ...fields }));
    },
    error(message, fields) {
      const { error, ...rest } = fields;
      const detail =
        error instanceof Error
          ? { name: error.name, message: error.message, stack: error.stack }
          : { value: String(error) };
      console.error(JSON.stringify({ level: 'error', message, ...rest, error: detail }));
    },
  };
}

/**
 * `res.locals` key of the status a request's work answered where the HTTP status says nothing of
 * it: an MCP tool call is answered 200 with `isError` and `_meta.status` inside, a JSON-RPC
 * protocol error 200 with its error code (src/mcp/http.ts). The access log and the request
 * metric record it (src/platform/telemetry.ts).
 */
export const ANSWERED_STATUS = 'answeredStatus';

const CORRELATION_HEADER = 'x-correlation-id';

/**
 * The request's own correlation id, minted here once per request and answered as
 * `x-correlation-id`. Never the client's: any caller, a board visitor too, could send another
 * request's id and have an auditor link their changes to it (requestIdsFor keeps the client's).
 */
export function correlationIdFor(res: ServerResponse): string {
  const existing = res.getHeader(CORRELATION_HEADER);
  if (typeof existing === 'string') return existing;
  const id = randomUUID();
  res.setHeader(CORRELATION_HEADER, id);
  return id;
}

/** The ids a request's events and log lines carry (EventMetadata). */
export interface RequestIds {
  correlationId: string;
  clientCorrelationId?: string;
}

/**
 * The server's correlation id and, when the client sent a well-formed `x-correlation-id` (its
 * own, or a proxy's), that one beside it as `clientCorrelationId`; a malformed one (too long,
 * control characters) is dropped, not stored.
 */
export function requestIdsFor(req: IncomingMessage, res: ServerResponse): RequestIds {
  const correlationId = correlationIdFor(res);
  const client = req.headers[CORRELATION_HEADER];
  return isWellFormedCorrelationId(client)
    ? { correlationId, clientCorrelationId: client }
    : { correlationId };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const json = body instanceof RawJson ? body.json : JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(json));
  res.end(json);
}

/**
 * What the operator learns of a failed request, whoever answers the client (the REST error
 * answer below, an MCP tool's error result): an internal error with its stack, a store that
 * cannot serve with the cause the client is not told. Refusals of the client (4xx) log nothing.
 */
export function reportFailure(
  logger: HttpLogger,
  err: unknown,
  resolved: ResolvedError,
  where: Record<string, unknown>,
): void {
  if (resolved.kind === 'internal') logger.error('request failed', { ...where, error: err });
  if (err instanceof ReadStoreUnavailableError || err instanceof EventStoreUnavailableError) {
    // the client is told only to retry; the operator learns why (a full disk, a lost server)
    logger.warn('store unavailable', { ...where, cause: err.message });
  }
}

export interface ErrorResponderOptions {
  envelope: ErrorEnvelope;
  logger: HttpLogger;
  /** `WWW-Authenticate` value on 401 answers that did not set their own */
  challenge: (req: IncomingMessage, error: unknown) => string;
}

export type ErrorResponder = (
  req: IncomingMessage,
  res: ServerResponse,
  err: unknown,
  operationId?: string,
) => void;

export function errorResponder({
  envelope,
  logger,
  challenge,
}: ErrorResponderOptions): ErrorResponder {
  return (req, res, err, operationId) => {
    const correlationId = correlationIdFor(res);
    const resolved = resolveError(err);
    reportFailure(logger, err, resolved, {
      correlationId,
      operationId,
      method: req.method,
      path: pathOf(req),
    });
    if (res.headersSent) {
      // Part of an answer is out; the only honest signal left is a cut connection.
      res.destroy();
      return;
    }
    const headers = resolved.headers;
    if (resolved.kind === 'unauthenticated' && !headers['WWW-Authenticate']) {
      headers['WWW-Authenticate'] = challenge(req, err);
    }
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    const message =
      resolved.kind === 'internal'
        ? `internal error; quote correlation id ${correlationId} when reporting it`
        : resolved.message;
    sendJson(res, envelope.status(resolved.kind), envelope.body(resolved.kind, message));
  };
}

/** RFC 6750: a bare challenge when no credential came, `invalid_token` when a bad one did. */
export function defaultChallenge(req: IncomingMessage): string {
  return req.headers.authorization ? 'Bearer error="invalid_token"' : 'Bearer';
}

/** The path of the request URL, without its query string. */
function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '';
  const mark = url.indexOf('?');
  return mark === -1 ? url : url.slice(0, mark);
}

const REFUSED = new Map<string | undefined, [status: number, reason: string, message: string]>([
  [
    'HPE_HEADER_OVERFLOW',
    [431, 'Request Header Fields Too Large', 'the request line and headers must not exceed 16 KB'],
  ],
  [
    'ERR_HTTP_REQUEST_TIMEOUT',
    [408, 'Request Timeout', 'the request did not arrive in time; send it again'],
  ],
]);

/**
 * node:http refuses some requests before any listener runs (a request line or headers over its
 * 16 KB limit: 431; a request that did not arrive whole within the server's request timeout: 408;
 * a request it cannot parse: 400) and by default answers them with an empty body. This answers
 * them in the service's envelope instead, then closes the connection. Returns the status
 * answered, for the access log and the request metric (src/platform/telemetry.ts); undefined
 * when the client was gone and nothing could be answered.
 */
export function clientErrorAnswer(envelope: ErrorEnvelope) {
  return (error: Error & { code?: string }, socket: Duplex): number | undefined => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return undefined;
    }
    const [status, reason, message] = REFUSED.get(error.code) ?? [
      envelope.status('invalid-argument'),
      'Bad Request',
      'the request could not be parsed as HTTP',
    ];
    const json = JSON.stringify(envelope.body('invalid-argument', message));
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
    );
    return status;
  };
}
