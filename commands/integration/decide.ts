import { AlreadyExists, NotFound } from '../shared/errors.js';
import type { IntegrationCreated, IntegrationEvent } from './events.js';
import type { IntegrationState } from './state.js';
import { nameText } from '../shared/text.js';

export type CreateIntegration = { type: 'CreateIntegration'; data: IntegrationCreated['data'] };
export type RevokeIntegration = { type: 'RevokeIntegration'; data: { workspaceId: string } };
export type IntegrationCommand = CreateIntegration | RevokeIntegration;

export const INTEGRATION_NAME_MAX = 100;

export function decideIntegration(
  command: IntegrationCommand,
  state: IntegrationState,
): IntegrationEvent[] {
  switch (command.type) {
    case 'CreateIntegration': {
      if (state.status !== 'absent') throw new AlreadyExists('integration already exists');
      const name = command.data.name.trim();
      nameText(name, 'integration name', INTEGRATION_NAME_MAX);
      return [{ type: 'IntegrationCreated', data: { ...command.data, name } }];
    }
    case 'RevokeIntegration':
      // another workspace's integration reads as missing: ids are never confirmed to strangers
      if (state.status === 'absent' || state.workspaceId !== command.data.workspaceId) {
        throw new NotFound('integration not found');
      }
      return state.status === 'revoked' ? [] : [{ type: 'IntegrationRevoked', data: {} }];
    default: {
      const _exhaustive: never = command;
      return [];
    }
  }
}
