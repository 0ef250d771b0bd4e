/**
 * What the OAuth server answers while a store refuses it — a full disk, a lost database server
 * (the errors src/http/errors.ts classifies as `unavailable`): 503 with `Retry-After` and the OAuth
 * error RFC 6749 names for a temporary condition, `temporarily_unavailable` (§4.1.2.1), as JSON at
 * the endpoints clients call (token, registration, revocation, PAR) and on the error page where a
 * person is (authorization, sign-in, consent) — never oidc-provider's `500 server_error`, nor the
 * REST envelope of the service.
 *
 * One answer for the two ways a request meets the store: inside oidc-provider (its adapter), where
 * the provider has answered 500 already and the answer is replaced before it is sent, and in our
 * Express middleware around it (rate limits, sign-in pages, revocation precheck), whose errors
 * end at the auth router's error handler.
 */
import type { ErrorRequestHandler } from 'express';
import type Provider from 'oidc-provider';
import { resolveError } from '../http/errors.js';
import { loggedPath } from '../platform/logger.js';
import { renderErrorPage } from './interaction/views.js';

/** a store that refused says when to retry only through the read store's own flush period */
const DEFAULT_RETRY_AFTER_SECONDS = '5';

/** where the answer is a page: the authorization endpoint (and its resume route), our sign-in pages */
const PAGES = /^\/oauth\/(authorize|interaction|upstream)(\/|$)/;

interface Answer {
  headers: Record<string, string>;
  page: boolean;
  body: { error: 'temporarily_unavailable'; error_description: string };
}

/** Whether `error` is a store's refusal (answered 503 by the handlers below), not the request's fault. */
export function isStoreRefusal(error: unknown): boolean {
  return resolveError(error).kind === 'unavailable';
}

/** The OAuth answer to `error`, or null when it is not a store's refusal. */
function answerTo(path: string, error: unknown): Answer | null {
  const resolved = resolveError(error);
  if (resolved.kind !== 'unavailable') return null;
  return {
    headers: {
      'Retry-After': resolved.headers['Retry-After'] ?? DEFAULT_RETRY_AFTER_SECONDS,
      'Cache-Control': 'no-store',
    },
    page: PAGES.test(path),
    body: { error: 'temporarily_unavailable', error_description: resolved.message },
  };
}

const rendered = (answer: Answer) =>
  renderErrorPage(answer.body.error, answer.body.error_description);

/** the operator learns the cause the client is not told */
function logged(log: (line: string) => void, method: string, path: string, error: unknown) {
  const cause = error instanceof Error ? error.message : String(error);
  log(`[auth] store unavailable: ${method} ${loggedPath(path)} answered 503: ${cause}`);
}

/** The auth router's last error handler: a store's refusal in our middleware. */
export function unavailableHandler(log: (line: string) => void): ErrorRequestHandler {
  return (error, req, res, next) => {
    const answer = answerTo(req.path, error);
    if (!answer || res.headersSent) return next(error);
    logged(log, req.method, req.path, error);
    res.status(503).set(answer.headers);
    if (answer.page) res.type('html').send(rendered(answer));
    else res.json(answer.body);
  };
}

/**
 * A store's refusal inside oidc-provider. Its routes catch every error and answer `500
 * server_error` themselves, announcing the error as the `server_error` event; the answer is
 * rewritten here before Koa sends it. An error thrown past the routes (the session saved after
 * one) is caught here directly.
 */
export function answerUnavailableInProvider(provider: Provider, log: (line: string) => void): void {
  const refused = new WeakMap<object, unknown>();
  provider.on('server_error', (ctx, error) => {
    if (answerTo(ctx.path, error)) refused.set(ctx, error);
  });
  provider.use(async (ctx, next) => {
    let error: unknown;
    try {
      await next();
      error = refused.get(ctx);
    } catch (thrown) {
      if (!answerTo(ctx.path, thrown)) throw thrown;
      error = thrown;
    }
    const answer = error === undefined ? null : answerTo(ctx.path, error);
    if (!answer) return;
    logged(log, ctx.method, ctx.path, error);
    ctx.status = 503;
    ctx.remove('Location');
    ctx.set(answer.headers);
    if (answer.page) {
      ctx.type = 'html';
      ctx.body = rendered(answer);
    } else ctx.body = answer.body;
  });
}
