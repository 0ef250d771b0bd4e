/**
 * What must hold before the handler acts (lifecycle.ts): the product the path names, the caller's
 * budget, If-Match and a write's If-None-Match (before the handler and after it).
 */
import type { ServiceTypes } from '../operation.js';
import {
  ifMatchHoldsFor,
  ifMatchRefused,
  ifMatchWithoutETag,
  ifNoneMatchWithoutETag,
  notModified,
} from '../etag.js';
import type { Exchange, Step } from '../lifecycle.js';

/**
 * What the path names beyond the workspace (a product) must exist before the budget or the
 * If-Match are looked at: a search of a missing product answers 404, as it would without
 * If-Match (RFC 9110 §13.2.1), and spends none of the caller's budget — only this cheap read ran.
 */
export const findScope: Step = (x) => {
  const scope = x.prepared.op.scope;
  // synchronous for every other operation: a returned promise would cost each one a turn
  if (scope) return scope(x.ctx!);
};

/**
 * An operation drawing on a per-caller budget takes one call from it (authorized calls only). A
 * request its preconditions refuse (checkPreconditions, next) only checks that a call is left: the
 * 412 spends nothing, while a spent budget still answers 429 whatever the If-Match says, so the
 * caller learns nothing it would not have learnt without it. So does one answered without its
 * content (withoutContent): a HEAD, or a 304.
 */
export const throttle: Step = (x, hooks) => {
  const budget = x.prepared.op.throttled;
  if (!budget || !hooks.throttle) return;
  // synchronous for every other operation: a returned promise would cost each one a turn
  const mode = unmetPrecondition(x) || withoutContent(x) ? 'peek' : 'take';
  return hooks.throttle(budget, x.facts.principal, mode);
};

/**
 * A `throttled` operation answered without its content, so none of the content's cost is worth
 * spending for it: the handler (the search) does not run and the budget is only checked (a spent
 * one answers 429 as the GET would).
 *  - a HEAD: RFC 9110 §9.3.2 lets it answer the status and headers a GET would, without the
 *    content. Counting it let a caller's HEAD requests (link checkers, proxies' probes) spend
 *    their searches;
 *  - a GET or HEAD whose If-None-Match is `*`: a search has no ETag (it is not `versioned`), so
 *    only `*` can match, and it matches whatever the search would find — "false if the origin
 *    server has a current representation" (§13.1.2), which a search whose scope exists always has:
 *    the answer is 304 before the search runs. Counting it charged a client revalidating its
 *    cached answer as for a new search. A list of tags never matches and runs the search.
 */
export function withoutContent<S extends ServiceTypes>(x: Exchange<S>): boolean {
  const { op } = x.prepared;
  if (op.throttled === undefined) return false;
  const method = x.facts.req?.method;
  if (method === 'HEAD') return true;
  return method === 'GET' && !op.versioned && notModified(x.facts.ifNoneMatch, undefined);
}

/**
 * RFC 9110 §13.1.1: an origin server "MUST NOT perform the requested method if a received If-Match
 * condition evaluates to false" — for every method, GET included. An operation that is not
 * `versioned` (or a create: its target is the collection, `createsInCollection`) has a target
 * without ETag, so no listed tag can match and only `*` holds. §13.1.2 says the same of an
 * If-None-Match, for a write 412: `*` is false for a target that exists, a list of tags true
 * (a GET's If-None-Match is the answer's 304, outcome.ts). If-Match is evaluated first (§13.2.2).
 * §13.2.1: the server "MUST ignore all received preconditions if its response to the same
 * request without those conditions ... would have been a status code other than a 2xx ... or
 * 412", so the refusal waits for the handler (a missing resource answers 404): it is kept in
 * `unmetPrecondition`, which the command handler honours after deciding, before appending, and
 * answered once the handler returns (preconditionsAnswered) — for a write only when it declares
 * how it honours it (`honoursIfMatch`): any other write is refused here, so a handler that does not
 * know of the precondition can never write under it. A `throttled` operation is refused here
 * instead, before its costly handler runs (the 401, 400, 403/404 — its `scope` included — and 429
 * of the earlier steps still come first): running it for a 412 would let a caller spend the server's work for free.
 * A `versioned` write's handler compares If-Match and If-None-Match with its resource's ETag
 * itself; a collection's create declares no `honoursIfMatch`, so it is refused here.
 */
export const checkPreconditions: Step = (x) => {
  const refused = unmetPrecondition(x);
  if (!refused) return;
  const { op } = x.prepared;
  if (op.throttled || (op.method !== 'get' && !op.honoursIfMatch)) throw refused;
  x.ctx!.unmetPrecondition = refused;
};

/**
 * After the handler found the resource and answered 2xx: a deferred refusal (checkPreconditions)
 * is answered now, and a `versioned` read compares If-Match with the ETag it answers (strong
 * comparison: a weak tag never matches), naming that ETag and its `resource` as a write's 412
 * does.
 */
export const preconditionsAnswered: Step = (x) => {
  if (x.ctx!.unmetPrecondition) throw x.ctx!.unmetPrecondition;
  const ifMatch = x.facts.ifMatch;
  if (ifMatch === undefined) return;
  const { op } = x.prepared;
  const etag = x.result!.headers?.ETag;
  if (
    op.versioned &&
    op.method === 'get' &&
    etag !== undefined &&
    !ifMatchHoldsFor(ifMatch, etag)
  ) {
    throw ifMatchRefused(ifMatch, op.resource ?? 'resource', etag);
  }
};

/** the first precondition that does not hold for a target without ETag, in §13.2.2's order */
function unmetPrecondition<S extends ServiceTypes>(x: Exchange<S>) {
  const { op } = x.prepared;
  if (op.versioned && !op.createsInCollection) return undefined;
  return (
    ifMatchWithoutETag(x.facts.ifMatch) ??
    (op.method === 'get' ? undefined : ifNoneMatchWithoutETag(x.facts.ifNoneMatch))
  );
}
