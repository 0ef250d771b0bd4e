/**
 * Name claims: tag names and device names are unique per user, and a name changes hands
 * through a claim (stream `notename-<userId>.<claimId>`, claimId derived from the kind and the
 * name key by the action). Whoever gives a tag or device a name — create or rename — first
 * appends a claim at the revision it read, naming the holder (the tag or device) and the
 * holder's stream revision the change will be appended after. The stream's optimistic
 * concurrency makes two claims of one name exclusive.
 *
 * A claim needs no release: it holds while its holder has the name, or while the holder's
 * change may still land — the holder's stream is still at the claimed revision and the claim is
 * younger than `claimLeaseMs`. A holder renamed away or deleted, a change that was refused or
 * overtaken (the stream moved past that revision) or a claimant that crashed therefore free the
 * name by themselves. Lives in the tag folder because tags use it most; devices use it the same
 * way. Pure; the action looks the holder up (`claimStatus` weighs what it found).
 */
import { z } from 'zod';
import type { Decider } from '../shared/decider.js';
import { claimLeaseMs } from '../shared/lease.js';
import { checkRevision } from '../shared/revision.js';

export const nameClaimSchema = z.object({
  /** the tag or device id that takes the name */
  holderId: z.string(),
  /** the holder's stream revision its change follows; -1 for a create */
  holderRevision: z.number().int(),
  /** when claimed (the command's time), for the lease */
  at: z.number(),
});
export type NameClaim = z.infer<typeof nameClaimSchema>;

export const nameClaimEventSchemas = { NoteNameClaimed: nameClaimSchema } as const;
export type NameClaimEvent = { type: 'NoteNameClaimed'; data: NameClaim };

export type NameClaimState = { revision: number; claim: NameClaim | null };

/** `expectedRevision`: the claim stream's revision the action found the name free at. */
export type ClaimName = { type: 'ClaimName'; data: NameClaim & { expectedRevision: number } };

export const nameClaimDecider: Decider<NameClaimState, ClaimName, NameClaimEvent> = {
  initialState: () => ({ revision: -1, claim: null }),
  evolve: (state, event) => ({ revision: state.revision + 1, claim: { ...event.data } }),
  decide(command, state) {
    const { expectedRevision, ...claim } = command.data;
    const current = state.claim;
    // the same claim again (a second creator of the same new tag) changes nothing
    if (current?.holderId === claim.holderId && current.holderRevision === claim.holderRevision) {
      return [];
    }
    checkRevision(expectedRevision, state.revision);
    return [{ type: 'NoteNameClaimed', data: claim }];
  },
};

/**
 * Whether a claim still holds its name, given its holder as stored now: `held` (the holder has
 * the name), `pending` (the holder's change may still land), or `lapsed`.
 */
export function claimStatus(
  claim: NameClaim,
  holder: { revision: number; hasName: boolean },
  now: number,
): 'held' | 'pending' | 'lapsed' {
  if (holder.hasName) return 'held';
  const waiting = holder.revision === claim.holderRevision && now - claim.at < claimLeaseMs;
  return waiting ? 'pending' : 'lapsed';
}

export const nameClaimStreamPrefix = 'notename-';

export function nameClaimStreamId(userId: string, claimId: string): string {
  return `${nameClaimStreamPrefix}${userId}.${claimId}`;
}
