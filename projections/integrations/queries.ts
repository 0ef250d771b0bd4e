import type { ReadStore } from '../../src/readstore/types.js';
import { type IntegrationDoc, integrationsOf } from './projector.js';

/** Looked up on every request, so a revocation applies to the very next one. */
export function integrationByHash(store: ReadStore, hash: string): Promise<IntegrationDoc | null> {
  return integrationsOf(store).findOne({ hash });
}

/** The Integration record: never the hash. */
export interface Integration {
  id: string;
  name: string;
  createdAt: number;
  createdBy: string | null;
  revoked: boolean;
  revokedAt: number | null;
}

export function toIntegration(doc: IntegrationDoc): Integration {
  const { id, name, createdAt, createdBy, revoked, revokedAt } = doc;
  return { id, name, createdAt, createdBy, revoked, revokedAt };
}

/** list_integrations: the workspace's integrations, oldest first, revoked ones included. */
export async function integrationsOfWorkspace(
  store: ReadStore,
  workspaceId: string,
): Promise<Integration[]> {
  const docs = await integrationsOf(store).find(
    { workspaceId },
    { sort: { createdAt: 1, _id: 1 } },
  );
  return docs.map(toIntegration);
}
