/**
 * The handler and its answer (lifecycle.ts): run it, wait for the read models its write reached
 * (read-your-writes), check the answer against its schema where asked, and send it.
 */
import { DomainError, errorOfKind, Unavailable } from '../../../commands/shared/errors.js';
import { RawJson } from '../../../projections/shared/raw-json.js';
import type { Exchange, Step } from '../lifecycle.js';
import type { ServiceTypes } from '../operation.js';
import { notModified } from '../etag.js';
import { sendJson } from '../respond.js';
import { withoutContent } from './preconditions.js';

/** Thrown when a handler's answer does not match its own response schema: a bug, answered `internal`. */
export class ResponseSchemaMismatch extends Error {
  override readonly name = 'ResponseSchemaMismatch';
}

/** Runs the handler; refusals the operation declares under another kind are answered as that. */
export const handle: Step = async (x) => {
  const { op } = x.prepared;
  // answered 200 without a body, or 304 (answer, below), without running the handler
  if (withoutContent(x)) {
    x.result = { headers: { 'Content-Type': 'application/json; charset=utf-8' } };
    return;
  }
  try {
    x.result = await op.handler(x.ctx!);
  } catch (error) {
    const kind = error instanceof DomainError ? op.answerAs?.[error.kind] : undefined;
    throw kind ? errorOfKind(kind, (error as Error).message) : error;
  }
};

export const awaitReadModels: Step = async (x, hooks) => {
  const result = x.result!;
  if (result.position != null && hooks.waitFor) {
    try {
      await hooks.waitFor(result.position);
    } catch (error) {
      throw error instanceof Unavailable ? writeNotReadable(x, error) : error;
    }
  }
  if (result.readBack) x.result = await result.readBack();
};

/**
 * A write whose read models did not catch up in time (PROJECTION_WAIT_MS) was made all the same:
 * its 503 says so, and what to do — a caller told only that "the read models did not reach
 * position …" sends the write again, and a reply, an item or a note is made twice. Sent again
 * with its Idempotency-Key it answers the first result; without one, only a write that is the
 * same when repeated (PUT, PATCH, DELETE, a declared-idempotent POST) may simply be sent again.
 */
function writeNotReadable<S extends ServiceTypes>(x: Exchange<S>, error: Unavailable): Unavailable {
  const { op } = x.prepared;
  const repeatable = op.method !== 'post' || op.idempotent === true;
  const next =
    x.facts.idempotencyKey !== undefined
      ? 'send the request again with the same Idempotency-Key for its result'
      : repeatable
        ? 'read it, or send the request again, after the seconds Retry-After names'
        : 'read it after the seconds Retry-After names instead of sending the request again, which would make it a second time';
  return new Unavailable(
    `the change was made, but cannot be answered yet (${error.message}); ${next}`,
    error.retryAfterSeconds,
  );
}

export const checkResponse: Step = (x, hooks) => {
  const { op } = x.prepared;
  const body = x.result!.body;
  if (!hooks.validateResponses) return;
  // the OpenAPI document declares ETag (and 304) only on `versioned` operations' bodies
  const status = x.result!.status ?? op.successStatus;
  if (status !== 204 && (x.result!.headers?.ETag !== undefined) !== (op.versioned === true)) {
    throw new ResponseSchemaMismatch(
      `${op.id} ${op.versioned ? 'is declared versioned but answered no ETag' : 'answered an ETag but is not declared versioned'}`,
    );
  }
  if (!op.response || body === undefined) return;
  const checked = op.response.safeParse(body instanceof RawJson ? body.toJSON() : body);
  if (!checked.success) {
    throw new ResponseSchemaMismatch(
      `${op.id} answered a body its response schema rejects: ${checked.error.message}`,
    );
  }
};

export const answer: Step = (x) => {
  const res = x.facts.res!;
  const result = x.result!;
  // A handler that wrote to the response itself (a stream, a redirect) has answered already.
  if (res.headersSent) return;
  if (result.headers) {
    for (const [name, value] of Object.entries(result.headers)) res.setHeader(name, value);
  }
  const status = result.status ?? x.prepared.op.successStatus;
  const method = x.facts.req?.method;
  // RFC 9110 §15.4.5: the 304 keeps the headers the 200 would carry (ETag, Cache-Control, Vary),
  // all set above; a resource without ETag is not modified for `If-None-Match: *` alone
  if (status === 200 && (method === 'GET' || method === 'HEAD')) {
    if (notModified(x.facts.ifNoneMatch, result.headers?.ETag)) {
      res.statusCode = 304;
      res.end();
      return;
    }
  }
  if (status === 204 || result.body === undefined) {
    res.statusCode = status;
    res.end();
  } else {
    sendJson(res, status, result.body);
  }
};
