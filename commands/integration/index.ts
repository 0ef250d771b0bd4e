import type { Decider } from '../shared/decider.js';
import { decideIntegration, type IntegrationCommand } from './decide.js';
import type { IntegrationEvent } from './events.js';
import { evolveIntegration, initialIntegrationState, type IntegrationState } from './state.js';

export * from './decide.js';
export * from './events.js';
export * from './state.js';

export const integrationDecider: Decider<IntegrationState, IntegrationCommand, IntegrationEvent> = {
  initialState: initialIntegrationState,
  evolve: evolveIntegration,
  decide: decideIntegration,
};

export const integrationStreamId = (integrationId: string): string =>
  `integration-${integrationId}`;
