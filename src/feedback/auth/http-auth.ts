/**
 * The registry's `authenticate` and `challenge` hooks for the feedback board.
 *
 * Over HTTP the scope rule is applied as soon as both the credential and the operation are known —
 * before the body is read and validated — so a `service.public` token learns nothing about an
 * operation it may not call, not even its validation messages. authorize() applies the same rule
 * again for callers that do not come through HTTP (the MCP server).
 */
import type { IncomingMessage } from 'node:http';
import { Unauthenticated } from '../../auth/index.js';
import type { Operation } from '../../http/registry.js';
import type { Caller, FeedbackTypes } from '../http/types.js';
import { bearerFrom } from './authenticate.js';
import { assertScope } from './authorize.js';

export function httpAuthenticate(authenticate: (token: string) => Promise<Caller>) {
  return async (req: IncomingMessage, op: Operation<FeedbackTypes>): Promise<Caller> => {
    const caller = await authenticate(bearerFrom(req));
    assertScope(op.meta, caller);
    return caller;
  };
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
