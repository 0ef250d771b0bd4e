/**
 * Who holds a name, and claiming it (named.ts says why names change hands through claims): the
 * name claim stream of a user's name key, read with the read model and the holder's own stream,
 * and the ids a name's new ones are created at, generation by generation.
 */
import { AlreadyExists } from '../../../commands/shared/errors.js';
import { RevisionMismatch } from '../../../commands/shared/revision.js';
import {
  claimStatus,
  type NameClaim,
  nameClaimDecider,
  nameClaimStreamId,
} from '../../../commands/tag/name-claim.js';
import { type CommandContext, derivedId, type NotesDeps, unkeyed } from './deps.js';
import type { Named, Stored } from './named.js';

export interface Seen<Result> {
  /** the claim stream's revision */
  revision: number;
  claim: NameClaim | null;
  /** who has the name or is about to */
  holder: { id: string; status: 'held' | 'pending'; stored: Stored<Result> } | null;
  /** the first generation's id is taken (by one created before claims and renamed since) */
  firstTaken: boolean;
}

/**
 * Who has the name or is about to. One that has it now holds it: the read model finds it
 * quickly (reusing an existing name costs a query and one stream read) and its stream confirms
 * it. Otherwise the claim says; with no claim, the id names had before claims.
 */
export async function look<Result>(
  deps: NotesDeps,
  named: Named<Result>,
  key: string,
  name: string,
  now: number,
): Promise<Seen<Result>> {
  const has = (stored: Stored<Result>) =>
    stored.liveName !== null && named.keyOf(stored.liveName) === key;
  const found = await named.findByName(name);
  const stored = found && (await named.load(found.id));
  const held = (id: string, stored: Stored<Result>) => ({ id, status: 'held' as const, stored });
  if (found && stored && has(stored)) {
    return { revision: -1, claim: null, holder: held(found.id, stored), firstTaken: true };
  }
  const { state } = await deps.commandHandler.load(claimStream(named, key), nameClaimDecider);
  const { revision, claim } = state;
  const id = claim ? claim.holderId : generationId(named, key, 0, false);
  const there = id === found?.id && stored ? stored : await named.load(id);
  if (has(there)) return { revision, claim, holder: held(id, there), firstTaken: true };
  if (!claim) return { revision, claim, holder: null, firstTaken: there.revision >= 0 };
  const status = claimStatus(claim, { revision: there.revision, hasName: false }, now);
  const pending = status === 'pending' ? { id, status, stored: there } : null;
  return { revision, claim, holder: pending, firstTaken: true };
}

export async function claimAt<Result>(
  deps: NotesDeps,
  context: CommandContext,
  named: Named<Result>,
  key: string,
  claim: NameClaim,
  expectedRevision: number,
): Promise<boolean> {
  try {
    const command = { type: 'ClaimName' as const, data: { ...claim, expectedRevision } };
    const stream = claimStream(named, key);
    await deps.commandHandler.handle(stream, nameClaimDecider, command, unkeyed(context));
    return true;
  } catch (error) {
    if (error instanceof RevisionMismatch) return false; // another claim came first
    throw error;
  }
}

/** The id of the name's `generation`-th new one; the first is the id names had before claims. */
export function generationId(
  named: Named<unknown>,
  key: string,
  generation: number,
  firstTaken: boolean,
): string {
  const { kind, userId } = named;
  if (generation === 0 && !firstTaken) return derivedId(kind, userId, key);
  return derivedId(kind, userId, key, `\u0001${generation}`);
}

/** The pending holder is a create of the generation its claim made (not a keyed create). */
export function joinable<Result>(named: Named<Result>, key: string, seen: Seen<Result>): boolean {
  if (seen.claim?.holderRevision !== -1) return false;
  const id = seen.holder?.id;
  return (
    id === generationId(named, key, seen.revision, false) ||
    id === generationId(named, key, seen.revision, true)
  );
}

function claimStream(named: Named<unknown>, key: string): string {
  return nameClaimStreamId(named.userId, derivedId(named.kind, key));
}

export function clash(named: Named<unknown>, name: string): AlreadyExists {
  return new AlreadyExists(`a ${named.kind} named "${name}" already exists`);
}
