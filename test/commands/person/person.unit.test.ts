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
  it('makes a name from elsewhere showable instead of refusing the feedback it came with', () => {
    // MCP audit: names with NUL or only U+200B reached the public board as typed
    given([])
      .when(register({ displayName: ' Bo\u0000\nB ' }))
      .then([{ ...created, data: { ...created.data, displayName: 'Bo B' } }]);
    given([])
      .when(register({ displayName: '\u200b\t' }))
      .then([{ ...created, data: { ...created.data, displayName: null } }]);
    // an invisible name never replaces a known one
    given([created])
      .when(register({ displayName: '\u200b' }))
      .then([]);
  });
  it('refuses an e-mail tier without an e-mail', () => {
    given([])
      .when(register({ email: null }))
      .thenThrows(InvalidArgument);
  });
});
