/**
 * One operation request, as a list of named steps over one `Exchange` (in the manner of
 * oidc-provider's endpoints). The HTTP middleware runs every step; the MCP server brings its own
 * authentication and input and runs the core (CORE_STEPS: all but authenticate, readBody, answer):
 *
 *   authenticate → checkIdempotencyKey → checkIfMatchSyntax → readBody → recheckCredential → validate → authorize
 *     → findScope → throttle → checkPreconditions → handle → preconditionsAnswered → awaitReadModels
 *     → checkResponse → answer
 *
 * The steps are in steps/: input.ts (authenticate to authorize, recheckCredential among them),
 * preconditions.ts (findScope, throttle, the precondition steps) and outcome.ts (handle to answer).
 *
 * Read-your-writes has one mechanism: a write's handler returns the event-log `position` it
 * reached (and, when it answers the changed resource, `readBack` to build that answer); the
 * `awaitReadModels` step waits until the read models include the position, then reads back.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type {
  ErasedContext,
  Operation,
  OperationResult,
  RequestFacts,
  ServiceTypes,
} from './operation.js';
import {
  authenticate,
  authorize,
  checkIdempotencyKey,
  checkIfMatchSyntax,
  readBody,
  recheckCredential,
  validate,
} from './steps/input.js';
import { answer, awaitReadModels, checkResponse, handle } from './steps/outcome.js';
import {
  checkPreconditions,
  findScope,
  preconditionsAnswered,
  throttle,
} from './steps/preconditions.js';
import { queryCoercer } from './validation.js';

export interface RawInput {
  params: Record<string, unknown>;
  /**
   * Over HTTP a getter that parses the query string (Express's `req.query`), which throws 400 for
   * one that is not UTF-8 (query-string.ts): it is read in the validate step, after the caller is
   * authenticated, and not at all by a read that ignores its query (prepareOperation).
   */
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
   * the caller again, live, from the credential the request presented (throw Unauthenticated
   * once it was revoked or expired): what was checked when the request arrived, without its
   * one-time parts (a DPoP proof cannot be presented twice, RFC 9449 §11.1)
   */
  recheck?: (
    req: IncomingMessage,
    op: Operation<S>,
    principal: S['principal'],
  ) => Promise<S['principal']>;
  /** a short label for the access log (who called, through which credential) */
  describeCaller?: (principal: S['principal']) => string;
  /** the 404 message for a path parameter that cannot name anything (e.g. a malformed slug) */
  unknownParam?: (name: string, op: Operation<S>) => string;
}

export interface PreparedOperation<S extends ServiceTypes> {
  readonly op: Operation<S>;
  /** the query of `raw` as the operation's schema takes it; does not read it when ignored */
  readonly coerceQuery: (raw: RawInput) => Record<string, unknown>;
}

/** Everything derivable from the operation is computed here, once, not per request. */
export function prepareOperation<S extends ServiceTypes>(op: Operation<S>): PreparedOperation<S> {
  // A read that takes no query and declares no 400 (feedback: resolve_item, who_needs_followup,
  // "401, 403, 404 (no 400)") may not answer one: there is no filter to misspell, so a query
  // parameter is ignored rather than refused.
  if (op.method === 'get' && !op.query && !op.body && !op.errors.includes(400)) {
    return { op, coerceQuery: () => ({}) };
  }
  const coerce = queryCoercer(op.query);
  return { op, coerceQuery: (raw) => coerce(raw.query) };
}

/** One request on its way through the steps. */
export interface Exchange<S extends ServiceTypes> {
  readonly prepared: PreparedOperation<S>;
  readonly facts: RequestFacts<S>;
  readonly raw: RawInput;
  ctx?: ErasedContext<S>;
  result?: OperationResult;
}

export type Step = <S extends ServiceTypes>(
  x: Exchange<S>,
  hooks: LifecycleHooks<S>,
) => void | Promise<void>;

/** The steps of an operation request over HTTP, in order. */
export const HTTP_STEPS: readonly Step[] = [
  authenticate,
  checkIdempotencyKey,
  checkIfMatchSyntax,
  readBody,
  recheckCredential,
  validate,
  authorize,
  findScope,
  throttle,
  checkPreconditions,
  handle,
  preconditionsAnswered,
  awaitReadModels,
  checkResponse,
  answer,
];

/**
 * The transport-independent core (the MCP server authenticates and reads input itself; its
 * Idempotency-Key comes from the tool call and is checked here as over HTTP). The credential of
 * the MCP request is checked again first, for each of its tool calls (`facts.recheck`).
 */
export const CORE_STEPS: readonly Step[] = [
  recheckCredential,
  checkIdempotencyKey,
  checkIfMatchSyntax,
  validate,
  authorize,
  findScope,
  throttle,
  checkPreconditions,
  handle,
  preconditionsAnswered,
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
