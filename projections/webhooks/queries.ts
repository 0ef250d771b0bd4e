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
