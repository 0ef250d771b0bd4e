/**
 * One operation request, as a list of named steps over one `Exchange` (in the manner of
 * oidc-provider's endpoints). The HTTP middleware runs every step; the MCP server brings its own
 * authentication and input and runs the core (CORE_STEPS: all but authenticate, readBody, answer):
 *
 *   authenticate → checkIdempotencyKey → readBody → validate → authorize → findScope → throttle
 *     → checkIfMatch → recheckCredential → handle → ifMatchAnswered → awaitReadModels
 *     → checkResponse → answer
 *
 * Read-your-writes has one mechanism: a write's handler returns the event-log `position` it
 * reached (and, when it answers the changed resource, `readBack` to build that answer); the
 * `awaitReadModels` step waits until the read models include the position, then reads back.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  DomainError,
  errorOfKind,
  InvalidArgument,
  NotFound,
  Unauthenticated,
} from '../../commands/shared/errors.js';
import { RawJson } from '../../projections/shared/raw-json.js';
import { HttpProblem } from './errors.js';
import type {
  ErasedContext,
  Operation,
  OperationResult,
  RequestFacts,
  ServiceTypes,
} from './operation.js';
import { ifMatchHoldsFor, ifMatchRefused, ifMatchWithoutETag, notModified } from './etag.js';
import { sendJson } from './respond.js';
import { describeIssues, queryCoercer } from './validation.js';

export interface RawInput {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  /** undefined when no body was sent */
  body: unknown;
}

/** What the service plugs into the steps. */
export interface LifecycleHooks<S extends ServiceTypes> {
  /** resolve the caller (over HTTP); throw Unauthenticated for a missing or bad credential */
  authenticate?: (req: IncomingMessage, op: Operation<S>) => Promise<S['principal']>;
  /** throw PermissionDenied / NotFound to refuse; the value returned becomes `ctx.access` */
  authorize?: (
    op: Operation<S>,
    principal: S['principal'] | undefined,
    ctx: ErasedContext<S>,
  ) => Promise<S['access'] | undefined>;
  /**
   * take one call from the caller's `budget` (`peek`: count nothing, only check one is left);
   * throw ResourceExhausted when it is spent
   */
  throttle?: (
    budget: 'searches',
    principal: S['principal'] | undefined,
    mode: 'take' | 'peek',
  ) => Promise<void>;
  /** resolves once the read models reflect `position` (read-your-writes) */
  waitFor?: (position: bigint) => Promise<void>;
  /** reads and parses a JSON body (the service's size limit) */
  readJson?: (req: IncomingMessage, res: ServerResponse) => Promise<unknown>;
  /** check handler output against `response` (tests and development; costs time per request) */
  validateResponses?: boolean;
  /**
   * how many revocations this process has heard (a token revoked, a member removed): when the
   * count moved while a request was on its way, `recheckCredential` checks it again
   */
  revocationsHeard?: () => number;
  /**
   * the caller again, live, for a credential whose revocations `revocationsHeard` counts (throw
   * Unauthenticated when it no longer holds); the principal as it is for any other (a DPoP proof
   * cannot be presented twice)
   */
  reauthenticate?: (
    req: IncomingMessage,
    op: Operation<S>,
    principal: S['principal'],
  ) => Promise<S['principal']>;
  /** a short label for the access log (who called, through which credential) */
  describeCaller?: (principal: S['principal']) => string;
  /** the 404 message for a path parameter that cannot name anything (e.g. a malformed slug) */
  unknownParam?: (name: string, op: Operation<S>) => string;
}

/** Thrown when a handler's answer does not match its own response schema: a bug, answered `internal`. */
export class ResponseSchemaMismatch extends Error {
  override readonly name = 'ResponseSchemaMismatch';
}

export interface PreparedOperation<S extends ServiceTypes> {
  readonly op: Operation<S>;
  readonly coerceQuery: (raw: Record<string, unknown>) => Record<string, unknown>;
}

/** Everything derivable from the operation is computed here, once, not per request. */
export function prepareOperation<S extends ServiceTypes>(op: Operation<S>): PreparedOperation<S> {
  // A read that takes no query and declares no 400 (feedback: resolve_item, who_needs_followup,
  // "401, 403, 404 (no 400)") may not answer one: there is no filter to misspell, so a query
  // parameter is ignored rather than refused.
  if (op.method === 'get' && !op.query && !op.body && !op.errors.includes(400)) {
    return { op, coerceQuery: () => ({}) };
  }
  return { op, coerceQuery: queryCoercer(op.query) };
}

/** One request on its way through the steps. */
export interface Exchange<S extends ServiceTypes> {
  readonly prepared: PreparedOperation<S>;
  readonly facts: RequestFacts<S>;
  readonly raw: RawInput;
  ctx?: ErasedContext<S>;
  result?: OperationResult;
  /** `revocationsHeard` as the request was authenticated */
  revocationsAt?: number;
}

export type Step = <S extends ServiceTypes>(
  x: Exchange<S>,
  hooks: LifecycleHooks<S>,
) => void | Promise<void>;

export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
const EMPTY: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

export const authenticate: Step = async (x, hooks) => {
  const { op } = x.prepared;
  if (op.auth !== 'bearer' || !x.facts.req || !hooks.authenticate) return;
  x.revocationsAt = hooks.revocationsHeard?.();
  const principal = await hooks.authenticate(x.facts.req, op);
  x.facts.principal = principal;
  // Express's per-response locals: the access log (platform/telemetry.ts) reads it
  const locals = (x.facts.res as { locals?: Record<string, unknown> } | undefined)?.locals;
  if (locals && hooks.describeCaller) locals.caller = hooks.describeCaller(principal);
};

/** Only writes read the key; a read ignores it. */
export const checkIdempotencyKey: Step = (x) => {
  const key = x.facts.idempotencyKey;
  if (x.prepared.op.method === 'get') return;
  if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) {
    throw new InvalidArgument('Idempotency-Key must be 1 to 255 visible ASCII characters');
  }
};

export const readBody: Step = async (x, hooks) => {
  const { req, res } = x.facts;
  if (!x.prepared.op.body || !req || !res || !hooks.readJson) return;
  const length = req.headers['content-length'];
  const hasBody =
    req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
  if (!hasBody) return;
  if (!isJsonType(req.headers['content-type'])) {
    throw new HttpProblem('unsupported-media-type', 'Content-Type must be application/json');
  }
  x.raw.body = await hooks.readJson(req, res);
};

export const validate: Step = (x, hooks) => {
  const { op, coerceQuery } = x.prepared;
  if (op.auth === 'bearer' && x.facts.principal === undefined) {
    throw new Unauthenticated('a bearer credential is required');
  }
  let params = EMPTY;
  if (op.params) {
    const parsed = op.params.safeParse(x.raw.params);
    if (!parsed.success) {
      const name = String(parsed.error.issues[0]?.path[0] ?? '');
      // a malformed segment of a URL names nothing that exists (the service may answer 404); a
      // tool call's missing or non-string argument is a bad argument, and says which
      const given = (x.raw.params as Record<string, unknown> | undefined)?.[name];
      const message = typeof given === 'string' ? hooks.unknownParam?.(name, op) : undefined;
      if (message) throw new NotFound(message);
      throw new InvalidArgument(describeIssues(parsed.error, x.raw.params, 'path'));
    }
    params = parsed.data;
  }
  let query = EMPTY;
  const input = coerceQuery(x.raw.query);
  if (op.query) {
    const parsed = op.query.safeParse(input);
    if (!parsed.success) throw new InvalidArgument(describeIssues(parsed.error, input, 'query'));
    query = parsed.data;
  }
  let body: unknown;
  if (op.body) {
    if (x.raw.body === undefined && op.bodyRequired) {
      throw new InvalidArgument('request body is required (Content-Type: application/json)');
    }
    if (x.raw.body !== undefined) {
      const parsed = op.body.safeParse(x.raw.body);
      if (!parsed.success)
        throw new InvalidArgument(
          describeIssues(parsed.error, x.raw.body, 'body', { schema: op.body }),
        );
      body = parsed.data;
    }
  }
  x.ctx = { ...x.facts, params, query, body, access: undefined };
};

export const authorize: Step = async (x, hooks) => {
  if (hooks.authorize)
    x.ctx!.access = await hooks.authorize(x.prepared.op, x.facts.principal, x.ctx!);
};

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
 * request its If-Match refuses (checkIfMatch, next) only checks that a call is left: the 412
 * spends nothing, while a spent budget still answers 429 whatever the If-Match says, so the
 * caller learns nothing it would not have learnt without it.
 */
export const throttle: Step = (x, hooks) => {
  const budget = x.prepared.op.throttled;
  if (!budget || !hooks.throttle) return;
  // synchronous for every other operation: a returned promise would cost each one a turn
  const mode = unmetIfMatch(x) || headOnly(x) ? 'peek' : 'take';
  return hooks.throttle(budget, x.facts.principal, mode);
};

/**
 * A HEAD of a `throttled` operation: RFC 9110 §9.3.2 lets it answer the status and headers a GET
 * would, without the content, and none of the content's cost is worth spending for it — the
 * handler (the search) does not run and the budget is only checked (a spent one answers 429 as the
 * GET would). Counting it let a caller's HEAD requests (link checkers, proxies' probes) spend
 * their searches.
 */
function headOnly<S extends ServiceTypes>(x: Exchange<S>): boolean {
  return x.facts.req?.method === 'HEAD' && x.prepared.op.throttled !== undefined;
}

/**
 * RFC 9110 §13.1.1: an origin server "MUST NOT perform the requested method if a received If-Match
 * condition evaluates to false" — for every method, GET included. An operation that is not
 * `versioned` answers a resource without ETag, so no listed tag can match and only `*` holds.
 * §13.2.1: the server "MUST ignore all received preconditions if its response to the same
 * request without those conditions ... would have been a status code other than a 2xx ... or
 * 412", so the refusal waits for the handler (a missing resource answers 404): it is kept in
 * `unmetIfMatch`, which the command handler honours after deciding, before appending, and
 * answered once the handler returns (ifMatchAnswered) — for a write only when it declares how it
 * honours it (`honoursIfMatch`): any other write is refused here, so a handler that does not
 * know of the precondition can never write under it. A `throttled` operation is refused here
 * instead, before its costly handler runs (the 401, 400, 403/404 — its `scope` included — and 429
 * of the earlier steps still come first): running it for a 412 would let a caller spend the server's work for free.
 * A `versioned` write's handler compares If-Match with its resource's revision itself.
 */
export const checkIfMatch: Step = (x) => {
  const refused = unmetIfMatch(x);
  if (!refused) return;
  const { op } = x.prepared;
  if (op.throttled || (op.method !== 'get' && !op.honoursIfMatch)) throw refused;
  x.ctx!.unmetIfMatch = refused;
};

/**
 * After the handler found the resource and answered 2xx: a deferred refusal (checkIfMatch) is
 * answered now, and a `versioned` read compares If-Match with the ETag it answers (strong
 * comparison: a weak tag never matches), naming that ETag and its `resource` as a write's 412
 * does.
 */
export const ifMatchAnswered: Step = (x) => {
  const ifMatch = x.facts.ifMatch;
  if (ifMatch === undefined) return;
  if (x.ctx!.unmetIfMatch) throw x.ctx!.unmetIfMatch;
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

function unmetIfMatch<S extends ServiceTypes>(x: Exchange<S>) {
  return x.prepared.op.versioned ? undefined : ifMatchWithoutETag(x.facts.ifMatch);
}

/**
 * A credential revoked while its request was on its way (its body still arriving, a wait on a
 * budget) must not act: when this process heard of a revocation since the request was
 * authenticated, it is authenticated and authorized again, live. Otherwise nothing is read twice.
 */
export const recheckCredential: Step = async (x, hooks) => {
  const { req } = x.facts;
  if (x.revocationsAt === undefined || !req) return;
  if (hooks.revocationsHeard?.() === x.revocationsAt) return;
  const principal = hooks.reauthenticate
    ? await hooks.reauthenticate(req, x.prepared.op, x.facts.principal)
    : x.facts.principal;
  x.facts.principal = principal;
  x.ctx!.principal = principal;
  if (hooks.authorize) x.ctx!.access = await hooks.authorize(x.prepared.op, principal, x.ctx!);
};

/** Runs the handler; refusals the operation declares under another kind are answered as that. */
export const handle: Step = async (x) => {
  const { op } = x.prepared;
  if (headOnly(x)) {
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
  if (result.position != null && hooks.waitFor) await hooks.waitFor(result.position);
  if (result.readBack) x.result = await result.readBack();
};

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
  const etag = result.headers?.ETag;
  const method = x.facts.req?.method;
  if (status === 200 && etag && (method === 'GET' || method === 'HEAD')) {
    const header = x.facts.req?.headers['if-none-match'];
    if (notModified(typeof header === 'string' ? header : undefined, etag)) {
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

/** The steps of an operation request over HTTP, in order. */
export const HTTP_STEPS: readonly Step[] = [
  authenticate,
  checkIdempotencyKey,
  readBody,
  validate,
  authorize,
  findScope,
  throttle,
  checkIfMatch,
  recheckCredential,
  handle,
  ifMatchAnswered,
  awaitReadModels,
  checkResponse,
  answer,
];

/**
 * The transport-independent core (the MCP server authenticates and reads input itself; its
 * Idempotency-Key comes from the tool call and is checked here as over HTTP).
 */
export const CORE_STEPS: readonly Step[] = [
  checkIdempotencyKey,
  validate,
  authorize,
  findScope,
  throttle,
  checkIfMatch,
  handle,
  ifMatchAnswered,
  awaitReadModels,
  checkResponse,
];

export async function runSteps<S extends ServiceTypes>(
  steps: readonly Step[],
  x: Exchange<S>,
  hooks: LifecycleHooks<S>,
): Promise<OperationResult> {
  for (const step of steps) {
    // most steps are synchronous: only a returned promise costs a turn of the microtask queue
    const pending = step(x, hooks);
    if (pending) await pending;
  }
  return x.result!;
}

function isJsonType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const media = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return (
    media === 'application/json' || (media.startsWith('application/') && media.endsWith('+json'))
  );
}
