/**
 * Which of the credential and membership events the read models lack can change one caller's
 * answer (http-auth.ts `requestCaller`): a request waits for those alone, so another user's new
 * token, another workspace's new member or another app's revocation holds no one else back while
 * a projector lags, and cannot have everyone refused 503 while it is stuck.
 *
 * What authenticating and authorizing a caller read, and the events that change it:
 * - a personal token or integration credential: its document, found by the value's hash
 *   (`TokenCreated` / `IntegrationCreated` carry the hash) and revoked on its own stream
 *   (token-<tokenId>, integration-<integrationId>). A revocation is final: one the read models
 *   lack refuses the request at once (401), without waiting for them;
 * - an ID token: its account (user-<userId>; by e-mail for another issuer's token). A refused
 *   JWT waits for the accounts the read models lack, as one may be its own;
 * - the caller's memberships (MemberAdded / MemberRoleChanged / MemberRemoved name the user):
 *   read by authorization, which runs after this wait.
 * An expiry is no event: it is checked live against the clock on every request.
 */
import { integrationStreamId } from '../../../commands/integration/index.js';
import { tokenStreamId } from '../../../commands/token/index.js';
import { userStreamId } from '../../../commands/user/index.js';
import type { RecordedEvent } from '../../eventstore/types.js';
import { Unauthenticated } from '../../auth/index.js';
import { hashIntegrationCredential } from '../actions/integrations.js';
import { hashToken, TOKEN_PREFIX } from '../actions/tokens.js';
import type { Caller } from '../http/types.js';
import { TOKEN_REVOKED } from './authenticate.js';
import { INTEGRATION_REVOKED, isIntegrationCredential } from './integration.js';

const CREATED = new Set(['TokenCreated', 'IntegrationCreated']);
const MEMBERSHIP = new Set(['MemberAdded', 'MemberRoleChanged', 'MemberRemoved']);
const REVOKED: Record<string, string> = {
  TokenRevoked: TOKEN_REVOKED,
  IntegrationRevoked: INTEGRATION_REVOKED,
};

/** what the first look at the read models answered: a caller, or why it was refused */
export type FirstLook = { caller: Caller } | { refused: Unauthenticated };

/**
 * What the pending events (oldest first) mean for a caller presenting `token`: `refused`, a
 * revocation of its own credential; otherwise `position`, the newest event it must wait for
 * before it is looked up again (0n: none, the first look stands).
 */
export function pendingForCaller(
  events: readonly RecordedEvent[],
  token: string,
  first: FirstLook,
): { refused: Unauthenticated } | { position: bigint } {
  const caller = 'caller' in first ? first.caller : undefined;
  const hash = opaqueHash(token);
  const own = ownStreams(events, hash, caller);
  let position = 0n;
  for (const event of events) {
    if (own.has(event.streamId)) {
      const revoked = REVOKED[event.type];
      if (revoked) return { refused: new Unauthenticated(revoked) };
      position = event.position;
    } else if (caller ? concernsUser(event, caller.userId) : mayBeAccountOf(event, hash)) {
      position = event.position;
    }
  }
  return { position };
}

/** the streams of the caller's credential: the one the read models found, or one created since */
function ownStreams(
  events: readonly RecordedEvent[],
  hash: string | undefined,
  caller: Caller | undefined,
): Set<string> {
  const own = new Set<string>();
  if (caller?.credential === 'pat') own.add(tokenStreamId(caller.credentialId ?? ''));
  if (caller?.credential === 'integration') own.add(integrationStreamId(caller.credentialId ?? ''));
  if (hash === undefined) return own;
  for (const event of events) {
    if (CREATED.has(event.type) && (event.data as { hash?: unknown }).hash === hash) {
      own.add(event.streamId);
    }
  }
  return own;
}

function opaqueHash(token: string): string | undefined {
  if (token.startsWith(TOKEN_PREFIX)) return hashToken(token);
  if (isIntegrationCredential(token)) return hashIntegrationCredential(token);
  return undefined;
}

/** the caller's own account, or a change to its own membership of a workspace */
function concernsUser(event: RecordedEvent, userId: string): boolean {
  if (event.streamId === userStreamId(userId)) return true;
  return MEMBERSHIP.has(event.type) && (event.data as { userId?: unknown }).userId === userId;
}

/** a refused ID or access token (no opaque credential's hash): a new account may be its own */
function mayBeAccountOf(event: RecordedEvent, hash: string | undefined): boolean {
  return hash === undefined && event.type === 'UserCreated';
}
