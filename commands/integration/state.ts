import type { IntegrationEvent } from './events.js';

interface IntegrationFacts {
  integrationId: string;
  workspaceId: string;
  name: string;
  hash: string;
}

export type IntegrationState =
  | { status: 'absent' }
  | ({ status: 'active' } & IntegrationFacts)
  | ({ status: 'revoked' } & IntegrationFacts);

export const initialIntegrationState = (): IntegrationState => ({ status: 'absent' });

export function evolveIntegration(
  state: IntegrationState,
  event: IntegrationEvent,
): IntegrationState {
  switch (event.type) {
    case 'IntegrationCreated':
      return { status: 'active', ...event.data };
    case 'IntegrationRevoked':
      return state.status === 'absent' ? state : { ...state, status: 'revoked' };
    default: {
      const _exhaustive: never = event;
      return state;
    }
  }
}
