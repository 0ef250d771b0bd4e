import { type PersonEvent, personDecider } from '../../../commands/person/index.js';
import { InvalidArgument } from '../../../commands/shared/errors.js';
import { deciderSpec } from '../../support/decider.js';

const given = deciderSpec(personDecider);
const base = { personId: 'p1', workspaceId: 'w1', avatar: null };
const created: PersonEvent = {
  type: 'PersonCreated',
  data: { ...base, tier: 'email', displayName: 'Bo', email: 'bo@example.com' },
};
const register = (data: Partial<typeof created.data>) =>
  ({
    type: 'RegisterPerson',
    data: { ...base, tier: 'email', displayName: 'Bo', email: 'Bo@Example.com', ...data },
  }) as const;

describe('When a person is registered', () => {
  it('creates the person with a normalised e-mail', () => {
    given([]).when(register({})).then([created]);
  });
  it('appends nothing when nothing new is learned', () => {
    given([created])
      .when(register({ displayName: null }))
      .then([]);
  });
  it('records what changed, never lowering the tier', () => {
    given([created])
      .when(register({ tier: 'google', displayName: 'Bo B' }))
      .then([{ type: 'PersonUpdated', data: { tier: 'google', displayName: 'Bo B' } }]);
    given([created])
      .when(register({ tier: 'anonymous', email: null }))
      .then([]);
  });
  it('refuses an e-mail tier without an e-mail', () => {
    given([])
      .when(register({ email: null }))
      .thenThrows(InvalidArgument);
  });
});
