import { AlreadyExists, InvalidArgument, NotFound } from '../../../commands/shared/errors.js';
import { type IntegrationEvent, integrationDecider } from '../../../commands/integration/index.js';
import { deciderSpec } from '../../support/decider.js';

const given = deciderSpec(integrationDecider);
const data = { integrationId: 'int_1', workspaceId: 'ws1', name: 'Zendesk', hash: 'h' };
const created: IntegrationEvent = { type: 'IntegrationCreated', data };
const create = (name: string) => ({ type: 'CreateIntegration', data: { ...data, name } }) as const;
const revoke = (workspaceId: string) =>
  ({ type: 'RevokeIntegration', data: { workspaceId } }) as const;

describe('When an integration credential is created', () => {
  it('records its hash under a trimmed name', () => {
    given([]).when(create('  Zendesk ')).then([created]);
  });
  it('refuses a name outside 1 to 100 characters, and a second creation', () => {
    // issue 18: "`name` 1–100"
    given([]).when(create('   ')).thenThrows(InvalidArgument);
    given([])
      .when(create('x'.repeat(101)))
      .thenThrows(InvalidArgument);
    given([created]).when(create('Zendesk')).thenThrows(AlreadyExists);
  });
});

describe('When an integration credential is revoked', () => {
  it('records the revocation once', () => {
    given([created])
      .when(revoke('ws1'))
      .then([{ type: 'IntegrationRevoked', data: {} }]);
    given([created, { type: 'IntegrationRevoked', data: {} }])
      .when(revoke('ws1'))
      .then([]);
  });
  it("answers not found for another workspace's integration", () => {
    given([created]).when(revoke('ws2')).thenThrows(NotFound);
    given([]).when(revoke('ws1')).thenThrows(NotFound);
  });
});
