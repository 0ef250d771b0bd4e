/**
 * The revocations this process has heard of, counted: a personal token revoked, a member
 * removed, an integration credential revoked — each once the read models include it, which is
 * when authenticating again sees it. The operation steps recheck a request's credential only
 * when the count moved while it was on its way (src/http/steps/preconditions.ts `recheckCredential`).
 */
import type { IncomingMessage } from 'node:http';
import type { ServiceContext } from '../../platform/service.js';
import type { Caller } from '../http/types.js';

const REVOKING: ReadonlySet<string> = new Set([
  'TokenRevoked',
  'MemberRemoved',
  'IntegrationRevoked',
]);

export function revocationsHeard(observe: ServiceContext['observeApplied']): () => number {
  let heard = 0;
  observe((event) => {
    if (REVOKING.has(event.type)) heard += 1;
  });
  return () => heard;
}

/**
 * The caller again, live, when its credential is one whose revocation is counted (a personal
 * token, an integration credential); an OAuth access token or an ID token is left as it was —
 * its DPoP proof, if any, was used up, and a removed member is refused by authorizing again.
 */
export function reauthenticateCounted<Op>(
  authenticate: (req: IncomingMessage, op: Op) => Promise<Caller>,
): (req: IncomingMessage, op: Op, caller: Caller) => Promise<Caller> {
  return async (req, op, caller) =>
    caller.credential === 'pat' || caller.credential === 'integration'
      ? authenticate(req, op)
      : caller;
}
