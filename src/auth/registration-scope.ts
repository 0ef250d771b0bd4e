/**
 * Dynamic client registration with resource scopes: an MCP client (the official SDK among them)
 * registers with `scope` set to what the protected-resource metadata lists, e.g.
 * `notes offline_access`. oidc-provider checks a client's `scope` against its OpenID scopes only
 * and would refuse `notes` with invalid_client_metadata. A registered `scope` restricts only the
 * OpenID scopes anyway (resource scopes are granted per resource), so the resource scopes are
 * taken out of it before oidc-provider sees the registration — RFC 7591 §3.2.1 lets the server
 * replace requested metadata, and the answer shows the scope registered.
 */
import type { RequestHandler } from 'express';
import { jsonBody } from '../http/json-body.js';
import { bodyRefusal } from './body-refusal.js';
import { REGISTRATION_BODY_MAX_KB } from './registration-bounds.js';

export function registrationScopes(resourceScopes: readonly string[]): RequestHandler[] {
  const resource = new Set(resourceScopes);
  const json = jsonBody({ limit: REGISTRATION_BODY_MAX_KB * 1024, type: 'application/json' });
  const narrow: RequestHandler = (req, _res, next) => {
    const body = req.body as Record<string, unknown> | undefined;
    if (body && typeof body === 'object' && typeof body.scope === 'string') {
      const kept = body.scope.split(' ').filter((s) => s && !resource.has(s));
      if (kept.length) body.scope = kept.join(' ');
      else delete body.scope;
    }
    next();
  };
  const unreadable = bodyRefusal({ error: 'invalid_client_metadata' });
  return [json, unreadable, narrow];
}
