/**
 * The shape of one operation in the registry. See src/http/registry.ts for the guide services
 * follow; this file only holds the types and the typed `define` helpers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import type { DomainErrorKind } from '../../commands/shared/errors.js';
import type { RawJson } from '../../projections/shared/raw-json.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type AuthRequirement = 'bearer' | 'none';

/** The three types a service fixes once: who calls, what `meta` it reads, what `authorize` hands on. */
export interface ServiceTypes {
  principal: unknown;
  meta: object;
  access: unknown;
}

/** Defaults for a service that needs nothing special. */
export interface DefaultServiceTypes extends ServiceTypes {
  principal: unknown;
  meta: Record<string, unknown>;
  access: unknown;
}

export type ObjectSchema = z.ZodObject<z.ZodRawShape>;
type OutputOf<T> = T extends z.ZodType ? z.output<T> : undefined;
type InputOf<T> = T extends z.ZodType ? z.input<T> : undefined;

/** Per-request values outside the operation's own input. Also what MCP supplies (without req/res). */
export interface RequestFacts<S extends ServiceTypes> {
  /** the server's own id for the request (respond.ts requestIdsFor) */
  correlationId: string;
  /** the client's well-formed `x-correlation-id`, kept beside it */
  clientCorrelationId?: string;
  /** the `Idempotency-Key` header, when the client sent one */
  idempotencyKey: string | undefined;
  /** the raw `If-Match` header; check it with `assertIfMatch` from src/http/etag.ts */
  ifMatch: string | undefined;
  /** the raw `If-None-Match` header (over HTTP only) */
  ifNoneMatch?: string;
  /**
   * Set by the lifecycle when a precondition of an operation whose target carries no ETag does
   * not hold (an If-Match other than `*`, a write's If-None-Match `*`): the 412 to answer
   * once the request is otherwise answerable (RFC 9110 §13.2.1: a 404 or 400 comes first). Pass
   * it on in the command context (`unmetPrecondition`): the command handler refuses the command
   * after deciding it, so nothing is written; a handler that writes outside the event log throws
   * it before writing.
   */
  unmetPrecondition?: Error;
  /** present when the operation runs over HTTP; absent when the MCP server invokes it */
  req?: IncomingMessage;
  res?: ServerResponse;
  /** set by the authenticate step (over HTTP) or by the caller (MCP) */
  principal: S['principal'] | undefined;
  /**
   * The caller again, live, from the credential as it was presented (the recheckCredential step,
   * src/http/steps/input.ts): throws Unauthenticated once it was revoked or expired. Set
   * by the authenticate step for a write over HTTP, by the MCP endpoint for every tool call.
   */
  recheck?: () => Promise<S['principal']>;
}

export interface OperationContext<S extends ServiceTypes, A extends AuthRequirement, P, Q, B>
  extends Omit<RequestFacts<S>, 'principal'> {
  params: OutputOf<P> extends undefined ? Record<string, never> : OutputOf<P>;
  query: OutputOf<Q> extends undefined ? Record<string, never> : OutputOf<Q>;
  body: OutputOf<B>;
  /** undefined only on `auth: 'none'` operations */
  principal: A extends 'none' ? undefined : S['principal'];
  /** whatever `authorize` returned (e.g. the live membership record it read) */
  access: S['access'];
}

/** What an operation answers. */
export interface OperationAnswer<Body = unknown> {
  /** defaults to the operation's `successStatus` */
  status?: number;
  /** the value, or its JSON text already serialized (see raw-json.ts) */
  body?: Body | RawJson<Body>;
  headers?: Record<string, string>;
}

export interface OperationResult<Body = unknown> extends OperationAnswer<Body> {
  /**
   * Read-your-writes: the event-log position the write reached (null: nothing was appended).
   * The registry answers only once the read models include it.
   */
  position?: bigint | null;
  /** for a write that answers the changed resource: builds the answer once `position` is read */
  readBack?: () => Promise<OperationAnswer<Body>>;
}

/** What a service writes for one operation. */
export interface OperationSpec<
  S extends ServiceTypes,
  A extends AuthRequirement,
  P extends ObjectSchema | undefined,
  Q extends ObjectSchema | undefined,
  B extends z.ZodType | undefined,
  R extends z.ZodType | undefined,
> {
  /** the spec's operation id, verbatim; also the MCP tool name */
  id: string;
  method: HttpMethod;
  /** OpenAPI style, e.g. `/v1/workspaces/{slug}/products` */
  path: string;
  summary: string;
  description?: string;
  /** appended to the description in OpenAPI (e.g. "Requires the workspace admin role.") */
  extraDescription?: string;
  tags?: string[];
  params?: P;
  query?: Q;
  body?: B;
  /** default true when `body` is set: a missing body is a 400 */
  bodyRequired?: boolean;
  /** success body schema; omit together with `successStatus: 204` */
  response?: R;
  successStatus?: 200 | 201 | 202 | 204;
  responseDescription?: string;
  /**
   * a POST whose repeat with the same input changes nothing more (a status set, a merge done):
   * `x-idempotent` in OpenAPI and `idempotentHint` on its MCP tool. GET, PUT, PATCH and DELETE
   * are idempotent by their method.
   */
  idempotent?: true;
  /**
   * a POST that replaces or removes what exists — a status, a whole tag set, duplicates folded
   * away, a signing secret — rather than only adding: `x-destructive` in OpenAPI and
   * `destructiveHint` on its MCP tool (MCP: "If false, the tool performs only additive
   * updates"), whether or not a history keeps the earlier value. PUT, PATCH and DELETE are
   * destructive by their method; a POST that creates, appends or brings back is not.
   */
  destructive?: true;
  /**
   * an operation that sends to a receiver outside the service (a webhook's URL): `x-open-world`
   * in OpenAPI and `openWorldHint` on its MCP tool; every other one works on the service's own
   * data only
   */
  openWorld?: true;
  /**
   * the per-caller budget a call draws one from (the service's `throttle` hook): an expensive
   * operation — a search embeds its query on a thread every caller shares — is bounded per
   * caller, so one account cannot hold it for everyone; past the budget a call is answered 429
   */
  throttled?: 'searches';
  /**
   * checks that what the path names beyond what `authorize` checks (a product) exists; throws
   * NotFound. Runs before the throttle and the If-Match check (lifecycle `findScope`), so a
   * missing scope answers 404 — not 429, not 412 (RFC 9110 §13.2.1) — and spends no budget.
   * A `throttled` operation with such a parameter must declare it (test/architecture): its
   * handler runs only after those steps.
   */
  scope?(ctx: OperationContext<S, A, P, Q, B>): Promise<void>;
  /**
   * How a write whose resource carries no `ETag` (not `versioned`) honours a precondition that
   * does not hold — an If-Match other than `*` (RFC 9110 §13.1.1), an If-None-Match `*` (§13.1.2):
   * the server "MUST NOT perform the requested method" — while letting its own refusals — a
   * missing resource's 404 — answer first (§13.2.1):
   *  - `commands`: it writes only through the command handler, with the command context built
   *    from ctx (`unmetPrecondition`: refused after deciding, before appending);
   *  - `handler`: it writes elsewhere (the read store, the OAuth server) and throws
   *    `ctx.unmetPrecondition` itself before writing, once it found its resource.
   * Absent: the lifecycle refuses such a request before the handler (412, a missing resource
   * too), so a handler that knows nothing of the precondition never runs under one. A GET writes
   * nothing and needs no declaration. test/architecture lists who declares what.
   */
  honoursIfMatch?: 'commands' | 'handler';
  /**
   * a resource with an `ETag`: answers carrying a body carry it (a create also its `Location`),
   * a GET honours If-None-Match (304), a write If-Match (412); OpenAPI declares those headers
   */
  versioned?: true;
  /**
   * a `versioned` create whose target is the collection it adds to (`POST /v1/notes`), which
   * carries no ETag — the one it answers is the new resource's, which no client can have read — and
   * always exists: its preconditions are those of an operation that is not versioned (only
   * `If-Match: *` holds, `If-None-Match: *` does not), refused before its handler runs. Without
   * it a versioned create's handler checks If-Match itself (against its parent's revision, say).
   */
  createsInCollection?: true;
  /**
   * what a `versioned` read answers, in the words of its 412 (`note`: "the note has changed since
   * it was read"), as its writes' own 412s name it; without it, "the resource"
   */
  resource?: string;
  /**
   * declared error statuses, documented in OpenAPI with the service's envelope; the registry
   * adds what every operation of its kind can answer (401 with a bearer, 503 for a write, the
   * envelope's statuses for a bad body)
   */
  errors: readonly number[];
  /**
   * refusals answered as another kind, where the spec declares fewer statuses than the domain
   * distinguishes (e.g. `{ 'failed-precondition': 'invalid-argument' }`)
   */
  answerAs?: Partial<Record<DomainErrorKind, DomainErrorKind>>;
  auth: A;
  /** read by the service's `authorize` (e.g. `{ admin: true }`), never by the registry */
  meta?: S['meta'];
  handler(ctx: OperationContext<S, A, P, Q, B>): Promise<OperationResult<InputOf<R>>>;
}

/** The registry's view of an operation: generics erased once the spec has been type-checked. */
export interface Operation<S extends ServiceTypes = DefaultServiceTypes> {
  readonly id: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly summary: string;
  readonly description?: string;
  readonly extraDescription?: string;
  readonly tags?: string[];
  readonly params?: ObjectSchema;
  readonly query?: ObjectSchema;
  readonly body?: z.ZodType;
  readonly bodyRequired: boolean;
  readonly response?: z.ZodType;
  readonly successStatus: 200 | 201 | 202 | 204;
  readonly responseDescription?: string;
  readonly idempotent?: true;
  readonly destructive?: true;
  readonly openWorld?: true;
  readonly throttled?: 'searches';
  readonly scope?: (ctx: ErasedContext<S>) => Promise<void>;
  readonly honoursIfMatch?: 'commands' | 'handler';
  readonly versioned?: true;
  readonly createsInCollection?: true;
  readonly resource?: string;
  readonly errors: readonly number[];
  readonly answerAs?: Partial<Record<DomainErrorKind, DomainErrorKind>>;
  readonly auth: AuthRequirement;
  readonly meta: S['meta'];
  readonly handler: (ctx: ErasedContext<S>) => Promise<OperationResult>;
}

export interface ErasedContext<S extends ServiceTypes> extends RequestFacts<S> {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
  access: S['access'];
}

/**
 * Returns a `define` function typed for one service: `const defineOp = operationsFor<Feedback>()`.
 * (Two steps because TypeScript cannot infer the schema generics while S is given explicitly.)
 */
export function operationsFor<S extends ServiceTypes>() {
  return function define<
    A extends AuthRequirement,
    P extends ObjectSchema | undefined = undefined,
    Q extends ObjectSchema | undefined = undefined,
    B extends z.ZodType | undefined = undefined,
    R extends z.ZodType | undefined = undefined,
  >(spec: OperationSpec<S, A, P, Q, B, R>): Operation<S> {
    if (spec.successStatus === 204 && spec.response) {
      throw new TypeError(`operation ${spec.id}: a 204 operation has no response body schema`);
    }
    if (spec.successStatus !== 204 && !spec.response) {
      throw new TypeError(
        `operation ${spec.id}: response schema missing (or set successStatus 204)`,
      );
    }
    const { scope, ...rest } = spec;
    return {
      ...rest,
      bodyRequired: spec.body ? (spec.bodyRequired ?? true) : false,
      successStatus: spec.successStatus ?? 200,
      meta: (spec.meta ?? {}) as S['meta'],
      handler: spec.handler as unknown as Operation<S>['handler'],
      ...(scope ? { scope: scope as unknown as Operation<S>['scope'] } : {}),
    };
  };
}

/** `define` for services with the default types. */
export const defineOperation = operationsFor<DefaultServiceTypes>();
