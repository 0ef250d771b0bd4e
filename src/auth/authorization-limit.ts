/**
 * What one client IP may make the authorization endpoint keep. Every authorization request
 * (`/oauth/authorize` and `/oauth/par`) stores its parameters for an hour in an
 * interaction record, unauthenticated: MCP audit F6 stored ~13 KB per request (a 12,000-character
 * `state`) at ~390 requests/s from one client. Two bounds, checked before oidc-provider sees the
 * request:
 *
 *  - size: a parameter value of more than PARAMETER_MAX_CHARS characters, or a request of more
 *    than REQUEST_MAX_CHARS in all (names and values), is refused with `invalid_request` — on
 *    the error page at `/oauth/authorize` (400; not redirected to the client, since an error
 *    redirect must carry `state` back, RFC 6749 §4.1.2.1), as JSON with 413 at `/oauth/par`
 *    (RFC 9126 §2.3: "413 Payload Too Large");
 *  - rate: per client IP, a sliding window (per-ip-limit.ts) shared by both endpoints; past it 429
 *    with `Retry-After` and `temporarily_unavailable` (RFC 6749 §4.1.2.1), in the same shapes
 *    (RFC 9126 §2.3: "429 Too Many Requests").
 *
 * A request refused for its size is not counted: it stores nothing.
 */
import type { Request, RequestHandler, Response, Router } from 'express';
import type { Limits } from '../limits/index.js';
import { renderErrorPage } from './interaction/views.js';
import { type PerIpFigures, perIpLimit } from './per-ip-limit.js';

/** a `state` or `nonce` is an opaque value of a few dozen characters; a URL fits as well */
export const PARAMETER_MAX_CHARS = 2048;
/** a real request (client_id, redirect_uri, scope, state, PKCE, resource) is under 1 KB */
export const REQUEST_MAX_CHARS = 8192;

/**
 * A person signs in a few times an hour, and reloading the page repeats a request: under ten in
 * ten minutes. Sixty leaves room for several people behind one address, and bounds what one
 * address can make the store keep to 60 × ~10 KB per ten minutes (~3.6 MB for the hour an
 * interaction lives) instead of ~18 GB an hour.
 */
export const DEFAULT_AUTHORIZATION_LIMIT: PerIpFigures = { max: 60, windowSeconds: 600 };

const PAR_PATH = '/oauth/par';

function paramsOf(req: Request): Array<[string, string]> {
  if (req.method !== 'POST') return [...new URL(req.originalUrl, 'http://x').searchParams];
  const body = (req.body ?? {}) as Record<string, string | string[]>;
  return Object.entries(body).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value]).map((one): [string, string] => [name, String(one)]),
  );
}

/** What makes the request too large to keep; null when it is not. */
export function sizeProblem(params: ReadonlyArray<[string, string]>): string | null {
  let total = 0;
  for (const [name, value] of params) {
    const chars = [...value].length;
    if (chars > PARAMETER_MAX_CHARS) {
      return `${name.slice(0, 64)} is longer than ${PARAMETER_MAX_CHARS} characters`;
    }
    total += [...name].length + chars;
  }
  return total > REQUEST_MAX_CHARS
    ? `the request's parameters are longer than ${REQUEST_MAX_CHARS} characters in all`
    : null;
}

/** An OAuth error as each endpoint answers its others: a page, or JSON at the PAR endpoint. */
function oauthError(req: Request, res: Response, error: string, description: string): void {
  res.set('Cache-Control', 'no-store');
  if (req.path === PAR_PATH) {
    res.json({ error, error_description: description });
    return;
  }
  res.type('html').send(renderErrorPage(error, description));
}

/** Mount after the request defaults (request-defaults.ts), which parse the form bodies. */
export function mountAuthorizationLimits(
  router: Router,
  deps: PerIpFigures & { limits: Limits; name: string; trustProxy: boolean },
): void {
  const bounded: RequestHandler = (req, res, next) => {
    const problem = sizeProblem(paramsOf(req));
    if (problem === null) return next();
    res.status(req.path === PAR_PATH ? 413 : 400);
    oauthError(req, res, 'invalid_request', problem);
  };
  const limited = perIpLimit({
    ...deps,
    refuse: (req, res, retryAfterSeconds) =>
      oauthError(
        req,
        res,
        'temporarily_unavailable',
        `too many authorization requests from this address; try again in ${retryAfterSeconds} s`,
      ),
  });
  router.get('/oauth/authorize', bounded, limited);
  router.post(PAR_PATH, bounded, limited);
}
