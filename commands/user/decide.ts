import { AlreadyExists, InvalidArgument } from '../shared/errors.js';
import type { UserEvent } from './events.js';
import type { UserState } from './state.js';

export type CreateUser = {
  type: 'CreateUser';
  data: { userId: string; email: string; displayName: string };
};
export type UserCommand = CreateUser;

export function decideUser(command: UserCommand, state: UserState): UserEvent[] {
  switch (command.type) {
    case 'CreateUser': {
      if (state.status !== 'absent') throw new AlreadyExists('user already exists');
      const email = command.data.email.trim().toLowerCase();
      const displayName = command.data.displayName.trim();
      if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new InvalidArgument('email is not valid');
      if (displayName.length < 1 || displayName.length > 200) {
        throw new InvalidArgument('displayName must be 1 to 200 characters');
      }
      return [{ type: 'UserCreated', data: { userId: command.data.userId, email, displayName } }];
    }
    default: {
      const _exhaustive: never = command.type;
      return [];
    }
  }
}
