import type { OAuthGrant } from '../../commands/webhook/index.js';
import type { ReadStore } from '../../src/readstore/types.js';
import { type WebhookDoc, webhookDocId, webhooksOf } from './document.js';

/** list_webhooks: the workspace's webhooks, oldest first. */
export function webhooksOfWorkspace(store: ReadStore, workspaceId: string): Promise<WebhookDoc[]> {
  return webhooksOf(store).find(
    { _ws: workspaceId, _deleted: false },
    { sort: { createdAt: 1, _id: 1 } },
  );
}

/** One webhook of the workspace; another workspace's id reads as missing. */
export async function findWebhook(
  store: ReadStore,
  query: { workspaceId: string; webhookId: string },
): Promise<WebhookDoc | null> {
  const doc = await webhooksOf(store).findOne({
    _id: webhookDocId(query.workspaceId, query.webhookId),
  });
  return doc && !doc._deleted ? doc : null;
}

/**
 * The enabled webhooks, in any workspace, whose URL an OAuth app set under this grant — and,
 * given the app's client name, those it set for the same user before events carried the grant
 * (document.ts LegacyApp: known by that name only, so every app of that name for the user).
 */
export async function enabledWebhooksUnderGrant(
  store: ReadStore,
  grant: OAuthGrant,
  clientName?: string,
): Promise<WebhookDoc[]> {
  const live = { enabled: true, _deleted: false };
  const sort = { sort: { createdAt: 1, _id: 1 } } as const;
  const underGrant = await webhooksOf(store).find(
    { '_grant.userId': grant.userId, '_grant.clientId': grant.clientId, ...live },
    sort,
  );
  if (clientName === undefined) return underGrant;
  const legacy = await webhooksOf(store).find(
    { '_legacyApp.userId': grant.userId, '_legacyApp.clientName': clientName, ...live },
    sort,
  );
  return [...underGrant, ...legacy];
}
