import { type PersonTier, personDecider, personStreamId } from '../../../commands/person/index.js';
import { type CommandContext, type CommandDeps, withoutKey } from './deps.js';
import type { PersonIds } from './person-ids.js';

/** What files as or registers a person: their ids (person-ids.ts) come with the handler. */
export interface PeopleDeps extends CommandDeps {
  personIds: PersonIds;
}

/** Who is filing or reacting, as the capture surface knows them. */
export interface Requester {
  tier?: PersonTier;
  email?: string | null;
  displayName?: string | null;
  avatar?: string | null;
  /** a stable id for an anonymous visitor (cookie, device); without it each submission is a new person */
  anonymousId?: string | null;
  /**
   * the user who gave `email` without anyone having proved it: the submission goes to an
   * unverified person (tier anonymous, the address kept as contact) of that user and address,
   * never to the person who owns the address, whose profile it never touches
   */
  unprovenBy?: string;
  /** false: an existing person's name and avatar stay as they are (someone files for them) */
  updateProfile?: boolean;
}

/** Create the person or add what we learned; appends nothing when nothing is new. */
export async function registerPerson(
  deps: PeopleDeps,
  context: CommandContext,
  /** personId: what deps.personIds.resolve already answered for this requester */
  input: { workspaceId: string; requester: Requester; personId?: string },
): Promise<{
  personId: string;
  tier: PersonTier;
  displayName: string | null;
  avatar: string | null;
  position: bigint | null;
}> {
  const { workspaceId, requester } = input;
  const personId =
    input.personId ?? (await deps.personIds.resolve(workspaceId, requester, context));
  const email = requester.email?.trim() || null;
  const proven = email && !requester.unprovenBy;
  const tier: PersonTier = requester.tier ?? (proven ? 'email' : 'anonymous');
  const result = await deps.commandHandler.handle(
    personStreamId(personId),
    personDecider,
    {
      type: 'RegisterPerson',
      data: {
        personId,
        workspaceId,
        tier,
        displayName: requester.displayName?.trim() || null,
        avatar: requester.avatar || null,
        email,
        ...(requester.updateProfile === false ? { updateProfile: false } : {}),
      },
    },
    // an upsert is idempotent by itself; a shared key would clash across a person's submissions
    withoutKey(context),
  );
  const state = result.state;
  return {
    personId,
    tier: state.status === 'known' ? state.tier : tier,
    displayName: state.status === 'known' ? state.displayName : null,
    avatar: state.status === 'known' ? state.avatar : null,
    position: result.position,
  };
}
