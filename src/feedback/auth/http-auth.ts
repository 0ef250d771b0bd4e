/**
 * The registry's `authenticate` and `challenge` hooks for the feedback board.
 *
 * Over HTTP the scope rule is applied as soon as both the credential and the operation are known —
 * before the body is read and validated — so a `service.public` token learns nothing about an
 * operation it may not call, not even its validation messages. authorize() applies the same rule
 * again for callers that do not come through HTTP (the MCP server).
 */
import type { IncomingMessage } from 'node:http';
import { integrationStreamId } from '../../../commands/integration/index.js';
import { Unavailable } from '../../../commands/shared/errors.js';
import { tokenStreamId } from '../../../commands/token/index.js';
import { userStreamId } from '../../../commands/user/index.js';
import { workspaceStreamId } from '../../../commands/workspace/index.js';
import type { EventFilter } from '../../eventstore/types.js';
import type { PendingEvents } from '../../platform/catch-up.js';
import { Unauthenticated } from '../../auth/index.js';
import type { Operation } from '../../http/registry.js';
import type { Caller, FeedbackTypes } from '../http/types.js';
import { type Presentation, presentationOf } from '../../auth/index.js';
import { credentialFrom } from './authenticate.js';
import { assertScope } from './authorize.js';
import { type FirstLook, pendingForCaller } from './pending-credentials.js';

/**
 * What authentication and authorization read (tokens, integration credentials, accounts,
 * memberships): the events of these streams the read models lack are the ones a request may
 * wait for (`pending` of `requestCaller`); it waits for nothing else.
 */
export const CREDENTIAL_STREAMS: EventFilter = {
  streamPrefixes: [
    tokenStreamId(''),
    integrationStreamId(''),
    userStreamId(''),
    workspaceStreamId(''),
  ],
};

/**
 * The caller of a request, from its Authorization header: the REST operations and the MCP
 * endpoint. Tokens and memberships are read from the read models, which must include a
 * revocation, removal or role change the admin CLI appended a moment ago (spec: "Revocation takes
 * effect at once"; "Removal or a role change applies on the next request") — of this caller's
 * own: `pending` (ServiceContext.pendingOn(CREDENTIAL_STREAMS)) names the credential and
 * membership events the read models lack, and the request waits only for those that concern it
 * (pending-credentials.ts), then is looked up again. A revocation of its own credential refuses
 * it at once (401) without waiting. Another user's new token or membership, or a read model
 * lagging on anything else (an item event a projector is stuck on, a rebuild), delays no
 * request; a read answers what the read models hold. When a change of its own is not in them
 * within PROJECTION_WAIT_MS the request is refused (503, `credentialsLag`): nothing was done.
 * `again`: the request is checked again before it acts (src/http/steps/input.ts
 * recheckCredential) — everything live once more (a personal token or integration credential
 * looked up, an access token's grant and deny-list, an ID token's account), but not a DPoP
 * proof, which was verified when the request arrived and may be presented once (RFC 9449 §11.1);
 * nor is it checked in the look-up again after a wait.
 */
export function requestCaller(
  authenticate: (token: string, presentation: Presentation) => Promise<Caller>,
  pending: () => Promise<PendingEvents>,
  /** the configured base URL: a DPoP proof's htu names it, never the Host header */
  baseUrl: string,
) {
  return async (req: IncomingMessage, again = false): Promise<Caller> => {
    const { scheme, token } = credentialFrom(req);
    const proofUsed: Presentation = { scheme: 'revocation' };
    const presentation: Presentation =
      again && scheme === 'DPoP' ? proofUsed : presentationOf(req, scheme, baseUrl);
    const lacking = await pending();
    // the hot path: the read models hold every credential event, nothing more to do
    if (lacking.events.length === 0) return authenticate(token, presentation);
    const first = await firstLook(authenticate(token, presentation));
    const concern = pendingForCaller(lacking.events, token, first);
    if ('refused' in concern) throw concern.refused;
    if (concern.position === 0n) {
      if ('refused' in first) throw first.refused;
      return first.caller;
    }
    try {
      await lacking.waitFor(concern.position);
    } catch (error) {
      throw error instanceof Unavailable ? credentialsLag(error) : error;
    }
    return authenticate(token, scheme === 'DPoP' ? proofUsed : presentation);
  };
}

/** a refusal (401) is an answer that a change the read models lack may turn; anything else throws */
async function firstLook(caller: Promise<Caller>): Promise<FirstLook> {
  try {
    return { caller: await caller };
  } catch (error) {
    if (error instanceof Unauthenticated) return { refused: error };
    throw error;
  }
}

/**
 * The read models lag behind a change to credentials or memberships (a revocation the CLI just
 * recorded, say): the caller cannot be checked against it. A 503 saying only "the read models did
 * not reach position …" told a client neither that nothing was done nor what to do.
 */
function credentialsLag(error: Unavailable): Unavailable {
  return new Unavailable(
    `the credential cannot be checked yet: a change to tokens, accounts or workspace memberships is recorded but not yet in the read models (${error.message}); nothing was done — send the request again after the seconds Retry-After names`,
    error.retryAfterSeconds,
  );
}

/** The authenticate hook of the REST operations, and their recheck (the same, `again`). */
export function httpAuthenticate(...args: Parameters<typeof requestCaller>) {
  const callerOf = requestCaller(...args);
  const scoped =
    (again: boolean) =>
    async (req: IncomingMessage, op: Operation<FeedbackTypes>): Promise<Caller> => {
      const caller = await callerOf(req, again);
      assertScope(op.meta, caller);
      return caller;
    };
  return { authenticate: scoped(false), recheck: scoped(true) };
}

/** RFC 6750 + RFC 9728 (+ RFC 9449 for DPoP): where to find the authorization server, what was wrong. */
export function feedbackChallenge(
  wwwAuthenticate: (
    error?: 'invalid_token' | 'invalid_request' | 'invalid_dpop_proof',
    scope?: string,
    scheme?: 'Bearer' | 'DPoP',
  ) => string,
) {
  return (req: IncomingMessage, error: unknown): string => {
    if (!req.headers.authorization) return wwwAuthenticate();
    if (!(error instanceof Unauthenticated)) return wwwAuthenticate('invalid_token');
    return wwwAuthenticate(error.oauthError, undefined, error.scheme);
  };
}
