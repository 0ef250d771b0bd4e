/**
 * The registry's `authenticate` and `challenge` hooks for the feedback board.
 *
 * Over HTTP the scope rule is applied as soon as both the credential and the route are known —
 * before the body is read and validated — so a `service.public` token learns nothing about an
 * operation it may not call, not even its validation messages. authorize() applies the same rule
 * again for callers that do not come through Express (the MCP server).
 */
import type { IncomingMessage } from 'node:http';
import { Unauthenticated } from '../../auth/index.js';
import type { MatchedRoute, RouteEntry } from '../../http/registry.js';
import type { Caller, FeedbackMeta } from '../http/types.js';
import { bearerFrom } from './authenticate.js';
import { assertScope } from './authorize.js';

export function httpAuthenticate(deps: {
  authenticate: (token: string) => Promise<Caller>;
  /** meta of the operation behind `METHOD expressPath`, filled once the registry is built */
  metaOf: (method: string, expressPath: string) => FeedbackMeta | undefined;
}) {
  return async (req: IncomingMessage, route: MatchedRoute): Promise<Caller> => {
    const caller = await deps.authenticate(bearerFrom(req));
    const meta = deps.metaOf(req.method ?? 'GET', route.path);
    if (meta) assertScope(meta, caller);
    return caller;
  };
}

export function routeMetaIndex(
  routes: RouteEntry[],
  metaById: Map<string, FeedbackMeta>,
): Map<string, FeedbackMeta> {
  const index = new Map<string, FeedbackMeta>();
  for (const route of routes) {
    const meta = metaById.get(route.operationId);
    if (meta) index.set(`${route.method.toUpperCase()} ${route.expressPath}`, meta);
  }
  return index;
}

/** RFC 6750 + RFC 9728: where to find the authorization server, and what was wrong. */
export function feedbackChallenge(
  wwwAuthenticate: (error?: 'invalid_token' | 'invalid_request') => string,
) {
  return (req: IncomingMessage, error: unknown): string => {
    if (!req.headers.authorization) return wwwAuthenticate();
    return wwwAuthenticate(error instanceof Unauthenticated ? error.oauthError : 'invalid_token');
  };
}
