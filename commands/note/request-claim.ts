/**
 * Request-key claims (stream `notekey-<userId>.<claimId>`, claimId derived by the action from
 * the actor, the note's stream and the Idempotency-Key). A note write that is about to create
 * tags or a device for the names it sends first claims its key with the hash of the request:
 * the first request of a key wins it, a retry of that request (same hash) passes, and another
 * request under that key is refused here — before it creates anything. The note's own stream
 * cannot serve: its event, which carries the key, can only be written once the tags exist.
 */
import { z } from 'zod';
import type { Decider } from '../shared/decider.js';
import { Conflict } from '../shared/errors.js';
import { anotherRequest } from '../shared/request-hash.js';

export const requestClaimEventSchemas = {
  NoteRequestKeyClaimed: z.object({ requestHash: z.string() }),
} as const;
export type RequestClaimEvent = { type: 'NoteRequestKeyClaimed'; data: { requestHash: string } };

export type RequestClaimState = { requestHash: string | null };

export type ClaimRequestKey = { type: 'ClaimRequestKey'; data: { requestHash: string } };

/** The message the command handler gives a key reused by another request (batch.ts). */
export const keyReusedMessage = 'Idempotency-Key was already used for a different request';

export const requestClaimDecider: Decider<RequestClaimState, ClaimRequestKey, RequestClaimEvent> = {
  initialState: () => ({ requestHash: null }),
  evolve: (_state, event) => ({ requestHash: event.data.requestHash }),
  decide(command, state) {
    const { requestHash } = command.data;
    if (state.requestHash === null)
      return [{ type: 'NoteRequestKeyClaimed', data: { requestHash } }];
    if (anotherRequest(state.requestHash, requestHash)) throw new Conflict(keyReusedMessage);
    return [];
  },
};

export const requestClaimStreamPrefix = 'notekey-';

export function requestClaimStreamId(userId: string, claimId: string): string {
  return `${requestClaimStreamPrefix}${userId}.${claimId}`;
}
