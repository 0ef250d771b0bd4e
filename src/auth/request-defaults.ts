/**
 * Authorization requests as the provider should see them, whether they arrive at
 * /oauth/authorize (query or form) or are pushed to /oauth/par (RFC 9126):
 *
 *  - no scope, or an empty one, asks for the service's default: feedback "default (no scope) =
 *    full maker surface" (issue 10 item 9; oidc-provider refuses a request that grants no scope
 *    at all with access_denied, so the default is `openid`, which carries no resource scope and
 *    therefore no restriction), notes its one data scope;
 *  - OIDC Core §11 drops offline_access unless prompt=consent; OAuth clients (notes, MCP) never
 *    send prompt, so a request for offline_access without a prompt is made an explicit consent.
 *
 * A request by reference (`request`, `request_uri`) is left alone: its parameters were pushed.
 */
import express, { type RequestHandler, type Router } from 'express';

export function applyDefaults(params: URLSearchParams, defaultScope: string): boolean {
  if (params.has('request') || params.has('request_uri')) return false;
  let changed = false;
  const scopes = (params.get('scope') ?? '').split(' ').filter(Boolean);
  if (scopes.length === 0) {
    params.set('scope', defaultScope);
    scopes.push(...defaultScope.split(' '));
    changed = true;
  }
  if (scopes.includes('offline_access') && !params.has('prompt')) {
    params.set('prompt', 'consent');
    changed = true;
  }
  return changed;
}

export function mountRequestDefaults(router: Router, defaultScope: string): void {
  const inQuery: RequestHandler = (req, _res, next) => {
    const url = new URL(req.originalUrl, 'http://x');
    if (applyDefaults(url.searchParams, defaultScope)) req.url = `${url.pathname}${url.search}`;
    next();
  };
  const inForm: RequestHandler = (req, _res, next) => {
    if (!req.body || typeof req.body !== 'object') return next();
    const params = new URLSearchParams(req.body as Record<string, string>);
    if (applyDefaults(params, defaultScope)) req.body = Object.fromEntries(params);
    next();
  };
  // oidc-provider's own limit for request bodies
  const form = express.urlencoded({ extended: false, limit: '56kb' });
  router.get('/oauth/authorize', inQuery);
  router.post('/oauth/authorize', form, inForm);
  router.post('/oauth/par', form, inForm);
}
