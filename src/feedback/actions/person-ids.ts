/**
 * One person per (workspace, e-mail), per (user, unproven address) and per anonymous visitor:
 * the id is derived from them, so the same requester lands on the same person without a lookup
 * and racing first submissions append to one stream. A person who signs in with Google later
 * keeps the id of their e-mail.
 *
 * The id reaches webhook receivers, API answers and the public board, so it is keyed (an HMAC
 * under the deployment's secret, platform/id-keys.ts): seeing it does not confirm a guessed
 * (workspace, address) or visitor cookie. People made before that carry the unkeyed hash and keep
 * it: the read model is asked for both ids at once, and on a miss (a new requester, or a read
 * model lagging or rebuilding) the legacy stream is read before filing under the keyed id, so one
 * requester never becomes two people. No person is made under a legacy id any more, so the choice
 * never changes once made.
 *
 * A workspace moved from an installation with another secret (import-workspace) brings people
 * whose ids neither key derives here. An address is still one person: on a miss, the person of
 * the workspace who proved that address (tier email or google; the oldest, should there be two)
 * is the one. Unverified people are not found by address: they are kept per user or visitor who
 * typed it, which their events do not say, so the same user typing it again on the new
 * installation gets a new unverified person (never the address owner's, by the rule above).
 */
import { personDecider, personStreamId } from '../../../commands/person/index.js';
import { emailKey } from '../../../commands/shared/email.js';
import { peopleOf } from '../../../projections/people/projector.js';
import { type IdKey, legacyDigest } from '../../platform/id-keys.js';
import type { ReadStore } from '../../readstore/types.js';
import { type CommandContext, type CommandHandler, idFor } from './deps.js';
import type { Requester } from './people.js';

export const PERSON_ID_PURPOSE = 'feedback-person-id';

export interface PersonIds {
  /** the person a requester files or votes as: for writes (reads the legacy stream on a miss) */
  resolve(workspaceId: string, requester: Requester, context: CommandContext): Promise<string>;
  /**
   * the same from the read model alone, for reads (the board's page views): a person it does not
   * have yet has nothing on the board to show either; null for a requester with no stable identity
   */
  known(workspaceId: string, requester: Requester): Promise<string | null>;
}

export interface PersonIdDeps {
  commandHandler: CommandHandler;
  readStore: ReadStore;
  /** the deployment's key for person ids (idKeyFor(secret, PERSON_ID_PURPOSE)) */
  personIdKey: IdKey;
}

/** What a requester's id is derived from, or null when nothing makes them the same next time. */
function basisOf(workspaceId: string, requester: Requester): string | null {
  const email = requester.email && emailKey(requester.email);
  const basis = email
    ? requester.unprovenBy
      ? `unproven:${requester.unprovenBy}:${email}`
      : `email:${email}`
    : requester.anonymousId
      ? `anon:${requester.anonymousId}`
      : null;
  return basis && `${workspaceId}\0${basis}`;
}

/** The id a new person of this requester gets under `key` (legacyDigest: the id made before). */
export function personIdUnder(
  key: IdKey,
  workspaceId: string,
  requester: Requester,
): string | null {
  const basis = basisOf(workspaceId, requester);
  return basis && `p${key(basis).slice(0, 24)}`;
}

export function createPersonIds(deps: PersonIdDeps): PersonIds {
  const candidates = (workspaceId: string, requester: Requester) => {
    const keyed = personIdUnder(deps.personIdKey, workspaceId, requester);
    const legacy = personIdUnder(legacyDigest, workspaceId, requester);
    return keyed && legacy ? { keyed, legacy } : null;
  };
  const inReadModel = async (
    workspaceId: string,
    requester: Requester,
    ids: { keyed: string; legacy: string },
  ) => {
    const docs = await peopleOf(deps.readStore).find({
      _id: { $in: [ids.keyed, ids.legacy] },
      _ws: workspaceId,
    });
    const found = new Set(docs.map((doc) => doc.id));
    if (found.has(ids.keyed)) return ids.keyed;
    if (found.has(ids.legacy)) return ids.legacy;
    return ownerOfAddress(workspaceId, requester);
  };
  /** the person who proved the requester's address, whatever key made their id (an import) */
  const ownerOfAddress = async (workspaceId: string, requester: Requester) => {
    const email = requester.email && emailKey(requester.email);
    if (!email || requester.unprovenBy) return null;
    const owners = (await peopleOf(deps.readStore).find({ _ws: workspaceId, email }))
      .filter((doc) => doc.tier !== 'anonymous')
      .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
    return owners[0]?.id ?? null;
  };
  return {
    async resolve(workspaceId, requester, context) {
      const ids = candidates(workspaceId, requester);
      if (!ids) return idFor('p', context, `person:${workspaceId}`);
      const known = await inReadModel(workspaceId, requester, ids);
      if (known) return known;
      // a miss costs one more stream read: a person made before ids were keyed
      const legacy = await deps.commandHandler.load(personStreamId(ids.legacy), personDecider);
      return legacy.state.status === 'absent' ? ids.keyed : ids.legacy;
    },
    async known(workspaceId, requester) {
      const ids = candidates(workspaceId, requester);
      if (!ids) return null;
      return (await inReadModel(workspaceId, requester, ids)) ?? ids.keyed;
    },
  };
}
