/**
 * Authorization requests as the provider should see them, whether they arrive at
 * /oauth/authorize (a query: oidc-provider serves no POST there, `enableHttpPostMethods` is off)
 * or are pushed to /oauth/par (RFC 9126):
 *
 *  - no scope, or an empty one, asks for the service's default: feedback "default (no scope) =
 *    full maker surface" (issue 10 item 9; oidc-provider refuses a request that grants no scope
 *    at all with access_denied, so the default is `openid`, which carries no resource scope and
 *    therefore no restriction), notes its one data scope; a request for OIDC scopes only
 *    (`offline_access`) gets the default's data scopes beside them;
 *  - OIDC Core §11 drops offline_access unless prompt=consent; OAuth clients (notes, MCP) never
 *    send prompt, so a request for offline_access without a prompt is made an explicit consent.
 *
 * A request by reference (`request`, `request_uri`) is left alone: its parameters were pushed.
 */
import express, { type RequestHandler, type Router } from 'express';
import { bodyRefusal } from './body-refusal.js';

export interface ScopeDefaults {
  /** what a request without scope asks for */
  defaultScope: string;
  /** the service's data scopes (`notes`, `service.public`) */
  resourceScopes: readonly string[];
  /** the OIDC scopes it offers besides `openid` */
  oidcScopes: readonly string[];
}

export function applyDefaults(params: URLSearchParams, defaults: ScopeDefaults): boolean {
  if (params.has('request') || params.has('request_uri')) return false;
  let changed = false;
  const scopes = (params.get('scope') ?? '').split(' ').filter(Boolean);
  const added =
    scopes.length === 0 ? defaults.defaultScope.split(' ') : missingData(scopes, defaults);
  if (added.length > 0) {
    scopes.push(...added);
    params.set('scope', scopes.join(' '));
    changed = true;
  }
  if (scopes.includes('offline_access') && !params.has('prompt')) {
    params.set('prompt', 'consent');
    changed = true;
  }
  return changed;
}

/**
 * A request whose known scopes are only OIDC ones (`offline_access` alone: "unattended use")
 * asks for the service's data as by default, or its token could do nothing: the default's data
 * scopes are added (notes: `notes`; feedback's default has none — no resource scope is already
 * the full maker surface). Unknown scopes are ignored here as everywhere; a request naming
 * only unknown ones is left to be refused with invalid_scope.
 */
function missingData(scopes: readonly string[], defaults: ScopeDefaults): string[] {
  const known = scopes.filter(
    (s) => s === 'openid' || defaults.oidcScopes.includes(s) || defaults.resourceScopes.includes(s),
  );
  if (known.length === 0 || known.some((s) => defaults.resourceScopes.includes(s))) return [];
  return defaults.defaultScope.split(' ').filter((s) => defaults.resourceScopes.includes(s));
}

export function mountRequestDefaults(router: Router, defaults: ScopeDefaults): void {
  const inQuery: RequestHandler = (req, _res, next) => {
    const url = new URL(req.originalUrl, 'http://x');
    if (applyDefaults(url.searchParams, defaults)) req.url = `${url.pathname}${url.search}`;
    next();
  };
  const inForm: RequestHandler = (req, _res, next) => {
    if (!req.body || typeof req.body !== 'object') return next();
    const params = new URLSearchParams(req.body as Record<string, string>);
    if (applyDefaults(params, defaults)) req.body = Object.fromEntries(params);
    next();
  };
  // oidc-provider's own limit for request bodies
  const form = express.urlencoded({ extended: false, limit: '56kb' });
  router.get('/oauth/authorize', inQuery);
  router.post(
    '/oauth/par',
    form,
    bodyRefusal({ error: 'invalid_request', tooLargeStatus: 413 }),
    inForm,
  );
}
