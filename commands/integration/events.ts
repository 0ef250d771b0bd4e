import { z } from 'zod';
import type { DomainEvent } from '../shared/decider.js';

/**
 * A workspace integration credential (spec "Attribution labels": `integration:<connection
 * name>`). It belongs to the workspace, not to a person. Only the hash of its value is recorded.
 */
export const IntegrationCreatedData = z.object({
  integrationId: z.string().min(1),
  workspaceId: z.string().min(1),
  name: z.string().min(1).max(100),
  hash: z.string().min(1),
});
export const IntegrationRevokedData = z.object({});

export type IntegrationCreated = DomainEvent<
  'IntegrationCreated',
  z.infer<typeof IntegrationCreatedData>
>;
export type IntegrationRevoked = DomainEvent<
  'IntegrationRevoked',
  z.infer<typeof IntegrationRevokedData>
>;
export type IntegrationEvent = IntegrationCreated | IntegrationRevoked;

export const integrationEventSchemas = {
  IntegrationCreated: IntegrationCreatedData,
  IntegrationRevoked: IntegrationRevokedData,
} as const;
