import type { PersonEvent, PersonTier } from './events.js';

export type PersonState =
  | { status: 'absent' }
  | {
      status: 'known';
      personId: string;
      workspaceId: string;
      tier: PersonTier;
      displayName: string | null;
      avatar: string | null;
      email: string | null;
    };

export const initialPersonState = (): PersonState => ({ status: 'absent' });

export function evolvePerson(state: PersonState, event: PersonEvent): PersonState {
  switch (event.type) {
    case 'PersonCreated':
      return { status: 'known', ...event.data };
    case 'PersonUpdated':
      return state.status === 'known' ? { ...state, ...event.data } : state;
    default: {
      const _exhaustive: never = event;
      return state;
    }
  }
}
