import type { UserEvent } from './events.js';

export type UserState =
  | { status: 'absent' }
  | { status: 'active'; userId: string; email: string; displayName: string };

export const initialUserState = (): UserState => ({ status: 'absent' });

export function evolveUser(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserCreated':
      return { status: 'active', ...event.data };
    default: {
      const _exhaustive: never = event.type;
      return state;
    }
  }
}
