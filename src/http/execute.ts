/**
 * Running one operation, independent of Express: validate the input with the operation's
 * schemas, authorize, call the handler, wait for read-your-writes. The HTTP adapter and the MCP
 * server both come through here, so the rules are enforced once.
 */
import { RawJson } from './raw-json.js';
import { InvalidArgument, Unauthenticated } from '../../commands/shared/errors.js';
import type {
  ErasedContext,
  Operation,
  OperationResult,
  RequestFacts,
  ServiceTypes,
} from './operation.js';
import { describeIssues, queryCoercer } from './validation.js';

export interface ExecutionHooks<S extends ServiceTypes> {
  /** throw PermissionDenied / NotFound to refuse; the value returned becomes `ctx.access` */
  authorize?: (
    op: Operation<S>,
    principal: S['principal'] | undefined,
    ctx: ErasedContext<S>,
  ) => Promise<S['access'] | undefined>;
  /** resolves once the read models reflect `position` (read-your-writes) */
  waitFor?: (position: bigint) => Promise<void>;
  /** check handler output against `response` (tests and development; costs time per request) */
  validateResponses?: boolean;
}

export interface RawInput {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  /** undefined when no body was sent */
  body: unknown;
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
  return { op, coerceQuery: queryCoercer(op.query) };
}

const EMPTY: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

function parseInput<S extends ServiceTypes>(prepared: PreparedOperation<S>, raw: RawInput) {
  const { op } = prepared;
  let params = EMPTY;
  if (op.params) {
    const parsed = op.params.safeParse(raw.params);
    if (!parsed.success)
      throw new InvalidArgument(describeIssues(parsed.error, raw.params, 'path'));
    params = parsed.data;
  }
  let query = EMPTY;
  if (op.query) {
    const input = prepared.coerceQuery(raw.query);
    const parsed = op.query.safeParse(input);
    if (!parsed.success) throw new InvalidArgument(describeIssues(parsed.error, input, 'query'));
    query = parsed.data;
  }
  let body: unknown;
  if (op.body) {
    if (raw.body === undefined && op.bodyRequired) {
      throw new InvalidArgument('request body is required (Content-Type: application/json)');
    }
    if (raw.body !== undefined) {
      const parsed = op.body.safeParse(raw.body);
      if (!parsed.success)
        throw new InvalidArgument(describeIssues(parsed.error, raw.body, 'body'));
      body = parsed.data;
    }
  }
  return { params, query, body };
}

export async function executeOperation<S extends ServiceTypes>(
  prepared: PreparedOperation<S>,
  raw: RawInput,
  facts: RequestFacts<S>,
  hooks: ExecutionHooks<S>,
): Promise<OperationResult> {
  const { op } = prepared;
  if (op.auth === 'bearer' && facts.principal === undefined) {
    throw new Unauthenticated('a bearer credential is required');
  }
  const input = parseInput(prepared, raw);
  const ctx: ErasedContext<S> = { ...facts, ...input, access: undefined };
  if (hooks.authorize) ctx.access = await hooks.authorize(op, facts.principal, ctx);
  const result = await op.handler(ctx);
  if (hooks.validateResponses && op.response && result.body !== undefined) {
    const checked = op.response.safeParse(
      result.body instanceof RawJson ? result.body.toJSON() : result.body,
    );
    if (!checked.success) {
      throw new ResponseSchemaMismatch(
        `${op.id} answered a body its response schema rejects: ${checked.error.message}`,
      );
    }
  }
  if (result.position !== undefined && result.position !== null && hooks.waitFor) {
    await hooks.waitFor(result.position);
  }
  return result;
}
