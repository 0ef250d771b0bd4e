import { AlreadyExists, InvalidArgument } from '../shared/errors.js';
import type { UserEvent } from './events.js';
import type { UserState } from './state.js';
import { nameText } from '../shared/text.js';
import { emailKey } from '../shared/email.js';

export type CreateUser = {
  type: 'CreateUser';
  data: { userId: string; email: string; displayName: string };
};
export type UserCommand = CreateUser;

export function decideUser(command: UserCommand, state: UserState): UserEvent[] {
  switch (command.type) {
    case 'CreateUser': {
      if (state.status !== 'absent') throw new AlreadyExists('user already exists');
      const email = emailKey(command.data.email);
      const displayName = command.data.displayName.trim();
      if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new InvalidArgument('email is not valid');
      nameText(displayName, 'displayName', 200);
      return [{ type: 'UserCreated', data: { userId: command.data.userId, email, displayName } }];
    }
    default: {
      const _exhaustive: never = command.type;
      return [];
    }
  }
}
