import { InvalidArgument } from '../shared/errors.js';
import { tidyName } from '../shared/text.js';
import type { PersonEvent, PersonTier, PersonUpdated } from './events.js';
import type { PersonState } from './state.js';
import { emailKey } from '../shared/email.js';

/**
 * Create the person or bring what we know up to date (upsert): submitting twice with the same
 * identity lands on the same person, and repeating it appends nothing.
 */
export type RegisterPerson = {
  type: 'RegisterPerson';
  data: {
    personId: string;
    workspaceId: string;
    tier: PersonTier;
    displayName: string | null;
    avatar: string | null;
    email: string | null;
    /**
     * false when someone else files for this person (a maker on a customer's behalf): what they
     * typed never renames an existing person or replaces their avatar (default true)
     */
    updateProfile?: boolean;
  };
};
export type PersonCommand = RegisterPerson;

const TIER_RANK: Record<PersonTier, number> = { anonymous: 0, email: 1, google: 2 };

export function decidePerson(command: PersonCommand, state: PersonState): PersonEvent[] {
  switch (command.type) {
    case 'RegisterPerson': {
      const { updateProfile = true, ...given } = command.data;
      const data = {
        ...given,
        displayName: tidyName(given.displayName),
        email: (given.email && emailKey(given.email)) || null,
      };
      if (data.tier !== 'anonymous' && !data.email) {
        throw new InvalidArgument(`a ${data.tier} person needs an e-mail address`);
      }
      if (state.status === 'absent') return [{ type: 'PersonCreated', data }];
      if (state.workspaceId !== data.workspaceId) {
        throw new InvalidArgument('person belongs to another workspace');
      }
      // what we learn only adds: a tier never drops, a known value is never erased by a null
      const changes: PersonUpdated['data'] = {};
      if (TIER_RANK[data.tier] > TIER_RANK[state.tier]) changes.tier = data.tier;
      if (updateProfile && data.displayName && data.displayName !== state.displayName) {
        changes.displayName = data.displayName;
      }
      if (updateProfile && data.avatar && data.avatar !== state.avatar)
        changes.avatar = data.avatar;
      if (data.email && data.email !== state.email) changes.email = data.email;
      return Object.keys(changes).length ? [{ type: 'PersonUpdated', data: changes }] : [];
    }
    default: {
      const _exhaustive: never = command.type;
      return [];
    }
  }
}
