import { AlreadyExists, InvalidArgument } from '../../../commands/shared/errors.js';
import { type UserEvent, userDecider } from '../../../commands/user/index.js';
import { deciderSpec } from '../../support/decider.js';

const given = deciderSpec(userDecider);
const created: UserEvent = {
  type: 'UserCreated',
  data: { userId: 'u1', email: 'ada@example.com', displayName: 'Ada' },
};
const create = (email = 'ada@example.com') =>
  ({ type: 'CreateUser', data: { userId: 'u1', email, displayName: ' Ada ' } }) as const;

describe('When a maker account is created', () => {
  it('records the user with a normalised e-mail and name', () => {
    given([]).when(create(' Ada@Example.com ')).then([created]);
  });
  it('refuses a second account on the same stream', () => {
    given([created]).when(create()).thenThrows(AlreadyExists);
  });
  it('refuses an e-mail without an @', () => {
    given([]).when(create('ada')).thenThrows(InvalidArgument);
  });
});
