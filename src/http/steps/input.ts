/**
 * The lifecycle's first steps (lifecycle.ts): who calls, the Idempotency-Key, the body, who calls
 * again once it is whole, and the input validated against the operation's schemas, then
 * authorized.
 */
import { z } from 'zod';
import { InvalidArgument, NotFound, Unauthenticated } from '../../../commands/shared/errors.js';
import { HttpProblem } from '../errors.js';
import { malformedIfMatch } from '../if-match-syntax.js';
import type { Step } from '../lifecycle.js';
import { describeIssues } from '../validation.js';

export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
const EMPTY: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;
/**
 * The body of a write that declares none: nothing, or `{}`. A field is refused as an unknown
 * field of any body is ("it takes none"): ignored, `{"secret": "…"}` sent to
 * rotate_webhook_secret answered 200 with a secret the client had not chosen.
 */
const NO_BODY = z.object({}).strict();

export const authenticate: Step = async (x, hooks) => {
  const { op } = x.prepared;
  if (op.auth !== 'bearer' || !x.facts.req || !hooks.authenticate) return;
  const { req } = x.facts;
  const principal = await hooks.authenticate(req, op);
  x.facts.principal = principal;
  // a write is checked again once its body is whole (recheckCredential): it may have taken long
  // to arrive. A read acts as soon as it is authenticated: it is not checked twice.
  const { recheck } = hooks;
  if (recheck && op.method !== 'get') x.facts.recheck = () => recheck(req, op, principal);
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

/**
 * An If-Match that lists no entity tag is a malformed request, 400, whatever the method and
 * whether or not the resource exists (if-match-syntax.ts says why not 412).
 */
export const checkIfMatchSyntax: Step = (x) => {
  const { op } = x.prepared;
  const malformed = malformedIfMatch(x.facts.ifMatch, !!op.versioned && !op.createsInCollection);
  if (malformed) throw malformed;
};

/** A read's input is its URL (RFC 9110 §9.3.1): a body sent with one is not read. */
export const readBody: Step = async (x, hooks) => {
  const { req, res } = x.facts;
  const { op } = x.prepared;
  if ((!op.body && op.method === 'get') || !req || !res || !hooks.readJson) return;
  const length = req.headers['content-length'];
  const hasBody =
    req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
  if (!hasBody) return;
  if (!isJsonType(req.headers['content-type'])) {
    const message = op.body
      ? 'Content-Type must be application/json'
      : 'this operation takes no request body: send none, or {} as application/json';
    throw new HttpProblem('unsupported-media-type', message);
  }
  x.raw.body = await hooks.readJson(req, res);
};

/**
 * A credential revoked while its request was on its way (its body still arriving, the calls of
 * an MCP POST before this one) must not act: once a write's body is whole, and before every MCP
 * tool call, the caller is checked again, live (`facts.recheck`), before the input is validated
 * and authorized (a member removed, a role changed meanwhile: the authorize step reads live).
 * Each lookup reads the stores every process shares (the embedded store's log first: catchUp),
 * so a revocation recorded by any process, or by the CLI, before this point is honoured; from
 * here to the append only the input's checks and the handler's own work run (milliseconds; a
 * write queued behind its stream's previous append waits for it). A read over HTTP is checked
 * once, when it arrives: one that started before a revocation may finish.
 */
export const recheckCredential: Step = async (x) => {
  const { recheck } = x.facts;
  if (recheck) x.facts.principal = await recheck();
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
      // a tool call's argument is typed: its refusal says the format too, which the assistant
      // can correct ("app" for the product key APP); a URL's segment answers as REST always has
      if (message && !x.facts.req) {
        throw new NotFound(`${message}: ${describeIssues(parsed.error, x.raw.params, 'path')}`);
      }
      if (message) throw new NotFound(message);
      throw new InvalidArgument(describeIssues(parsed.error, x.raw.params, 'path'));
    }
    params = parsed.data;
  }
  let query = EMPTY;
  const input = coerceQuery(x.raw);
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
  } else if (x.raw.body !== undefined) {
    const parsed = NO_BODY.safeParse(x.raw.body);
    if (!parsed.success) {
      throw new InvalidArgument(
        describeIssues(parsed.error, x.raw.body, 'body', { schema: NO_BODY }),
      );
    }
  }
  x.ctx = { ...x.facts, params, query, body, access: undefined };
};

export const authorize: Step = async (x, hooks) => {
  if (hooks.authorize)
    x.ctx!.access = await hooks.authorize(x.prepared.op, x.facts.principal, x.ctx!);
};

function isJsonType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const media = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return (
    media === 'application/json' || (media.startsWith('application/') && media.endsWith('+json'))
  );
}
