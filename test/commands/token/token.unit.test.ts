import { AlreadyExists, NotFound, PermissionDenied } from '../../../commands/shared/errors.js';
import { type TokenEvent, tokenDecider } from '../../../commands/token/index.js';
import { deciderSpec } from '../../support/decider.js';

const given = deciderSpec(tokenDecider);
const data = { tokenId: 't1', ownerId: 'u1', name: 'laptop', hash: 'h', expiresAt: null };
const created: TokenEvent = { type: 'TokenCreated', data };
const create = (ownerIsMaker: boolean) =>
  ({ type: 'CreateToken', data: { ...data, ownerIsMaker } }) as const;
const revoke = (byUserId: string) => ({ type: 'RevokeToken', data: { byUserId } }) as const;

describe('When a personal API token is created', () => {
  it('records the hash, never a value', () => {
    given([]).when(create(true)).then([created]);
  });
  it('refuses a user without a workspace', () => {
    // spec: "Only makers can create one; ... an account with no workspace is refused."
    given([]).when(create(false)).thenThrows(PermissionDenied);
  });
  it('refuses to create it twice', () => {
    given([created]).when(create(true)).thenThrows(AlreadyExists);
  });
});

describe('When a token is revoked', () => {
  it('records the revocation once', () => {
    given([created])
      .when(revoke('u1'))
      .then([{ type: 'TokenRevoked', data: {} }]);
    given([created, { type: 'TokenRevoked', data: {} }])
      .when(revoke('u1'))
      .then([]);
  });
  it("answers not found for someone else's token", () => {
    given([created]).when(revoke('u2')).thenThrows(NotFound);
    given([]).when(revoke('u1')).thenThrows(NotFound);
  });
});
