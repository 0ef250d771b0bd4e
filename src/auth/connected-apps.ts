/**
 * The apps a user connected (one per client with a live grant) and disconnecting one: its grants
 * go, with every refresh token and code hanging off them; its JWT access tokens stop at once
 * because verifyAccessToken checks the grant.
 */
import type Provider from 'oidc-provider';
import type { Collection, ReadStore } from '../readstore/types.js';
import { scopesOfGrant } from './access-token.js';
import type { StoredArtifact } from './storage/adapter.js';

export interface ConnectedApp {
  clientId: string;
  clientName: string;
  scopes: string[];
  /** ms since 1970, as every timestamp of the API (spec: "All timestamps are numbers") */
  connectedAt: number;
}

const GRANT_MEMBERS = ['AccessToken', 'AuthorizationCode', 'RefreshToken'] as const;

/** The grants of a user (for one client, when given) that have not ended. */
function liveGrants(userId: string, now: number, clientId?: string) {
  return {
    accountId: userId,
    ...(clientId ? { clientId } : {}),
    $or: [{ expiresAt: null }, { expiresAt: { $gt: now } }],
  };
}

/**
 * Whether the user still holds a live grant for the client, read from the grants collection of
 * an authorization server (`<collectionPrefix>_Grant`) by a process that need not run one (the
 * webhook worker). A client known only by its name (a webhook an app set before events carried
 * its grant) holds it while any live grant of the user is to a live client of that name.
 */
export function grantHolder(
  readStore: ReadStore,
  collectionPrefix: string,
  now: () => number = Date.now,
): (
  grant: { userId: string; clientId: string } | { userId: string; clientName: string },
) => Promise<boolean> {
  const grants = readStore.collection<StoredArtifact>(`${collectionPrefix}_Grant`);
  const clients = readStore.collection<StoredArtifact>(`${collectionPrefix}_Client`);
  const namedAs = async (clientId: string | undefined, name: string) => {
    const client = clientId ? await clients.findOne({ _id: clientId }) : null;
    if (!client || (client.expiresAt !== null && client.expiresAt <= now())) return false;
    return (JSON.parse(client.payload) as { client_name?: string }).client_name === name;
  };
  return async (grant) => {
    if ('clientId' in grant)
      return (await grants.findOne(liveGrants(grant.userId, now(), grant.clientId))) !== null;
    for (const live of await grants.find(liveGrants(grant.userId, now()))) {
      if (await namedAs(live.clientId, grant.clientName)) return true;
    }
    return false;
  };
}

export function createConnectedApps(deps: {
  provider: Provider;
  grants: Collection<StoredArtifact>;
  now: () => number;
}) {
  const live = (userId: string, clientId?: string) => liveGrants(userId, deps.now(), clientId);

  return {
    async listConnectedApps(userId: string): Promise<ConnectedApp[]> {
      const docs = await deps.grants.find(live(userId));
      const byClient = new Map<string, ConnectedApp>();
      for (const doc of docs) {
        const payload = JSON.parse(doc.payload) as { clientId: string; iat?: number };
        const scopes = scopesOfGrant(doc);
        const client = await deps.provider.Client.find(payload.clientId);
        const app = byClient.get(payload.clientId);
        const connectedAt = (payload.iat ?? 0) * 1000;
        if (app) {
          app.scopes = [...new Set([...app.scopes, ...scopes])];
          if (connectedAt < app.connectedAt) app.connectedAt = connectedAt;
        } else {
          byClient.set(payload.clientId, {
            clientId: payload.clientId,
            clientName: client?.clientName ?? payload.clientId,
            scopes: [...new Set(scopes)],
            connectedAt,
          });
        }
      }
      return [...byClient.values()].sort((a, b) => a.clientName.localeCompare(b.clientName));
    },

    /** whether a client of this id is registered (a client id is public, like its name) */
    async isRegisteredClient(clientId: string): Promise<boolean> {
      return (await deps.provider.Client.find(clientId)) !== undefined;
    },

    /** true when something was revoked; false when the user had not connected that client */
    async revokeConnectedApp(userId: string, clientId: string): Promise<boolean> {
      const docs = await deps.grants.find({ accountId: userId, clientId });
      for (const doc of docs) {
        const grantId = doc._id;
        await Promise.all(
          GRANT_MEMBERS.map((model) => deps.provider[model].adapter.revokeByGrantId(grantId)),
        );
        await deps.provider.Grant.adapter.destroy(grantId);
      }
      return docs.length > 0;
    },
  };
}
