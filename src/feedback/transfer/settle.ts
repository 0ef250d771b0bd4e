/**
 * What an import does on the target once the events are written and projected, for what a move
 * between installations changes about a workspace's webhooks and integrations (README,
 * "export … import-workspace"):
 *
 *   - the webhook worker starts after the imported events: every one of them was the source's to
 *     deliver (its deliveries stay there), and a receiver must not get the workspace's whole
 *     past again from the new installation. So no worker may run meanwhile — one following the
 *     log would fan the imported events out as they land, and save its own checkpoint over this
 *     one: the import holds the worker's lease from before the first event to after the
 *     checkpoint (import-workspace, src/cli/verbs/transfer.ts), and is refused while a worker holds it;
 *   - a webhook keeps its URL, description, filters and state. Its signing secret is in the file
 *     only sealed under the source's APP_SECRET: with the same APP_SECRET here it opens, and the
 *     receiver notices nothing. Otherwise nothing can sign for it: an enabled one is disabled,
 *     saying why, and is listed, for an admin to rotate its secret, hand the new one to the
 *     receiver and enable it — what happens meanwhile waits, paused, and is then delivered;
 *   - a webhook whose URL an OAuth app set is disabled likewise: apps and their grants are the
 *     source's and do not move, so no consent holds here (delivery/attempt.ts would disable it
 *     at its first message);
 *   - an integration's credential is kept as its SHA-256 (unkeyed), so it authenticates here as
 *     on the source; a revoked one stays revoked. The CLI says how many moved.
 */
import { webhookDecider, webhookStreamId } from '../../../commands/webhook/index.js';
import { integrationsOfWorkspace } from '../../../projections/integrations/index.js';
import { type WebhookDoc, webhooksOf } from '../../../projections/webhooks/document.js';
import type { EventStore } from '../../eventstore/types.js';
import type { ReadStore } from '../../readstore/types.js';
import type { SecretBox } from '../../webhooks/secrets.js';
import { saveCheckpoint } from '../../webhooks/worker/state.js';
import type { CommandContext, CommandHandler } from '../actions/deps.js';

export interface SettleDeps {
  eventStore: EventStore;
  readStore: ReadStore;
  commandHandler: CommandHandler;
  /** this installation's, from its APP_SECRET */
  secrets: SecretBox;
}

export interface SettledWebhook {
  webhookId: string;
  url: string;
  /** why it cannot deliver here until an admin acts */
  reason: string;
}

export interface SettleReport {
  webhooks: number;
  /** the webhooks that need an admin before they deliver again */
  held: SettledWebhook[];
  integrations: number;
}

export const UNREADABLE_SECRET =
  "moved from another installation: its signing secret was sealed with that installation's APP_SECRET; rotate the secret, give it to the receiver, then enable the webhook";

const appReason = (app: string) =>
  `moved from another installation: the OAuth app ${app} that set its URL was connected there; set the URL again, then enable the webhook`;

/** Run once the imported events are projected (the read models list the webhooks). */
export async function settleImport(
  deps: SettleDeps,
  context: CommandContext,
  workspaceId: string,
): Promise<SettleReport> {
  await saveCheckpoint(deps.readStore, await deps.eventStore.headPosition());
  const hooks = await webhooksOf(deps.readStore).find({ _ws: workspaceId, _deleted: false });
  const held: SettledWebhook[] = [];
  for (const hook of hooks) {
    const reason = heldBecause(deps.secrets, hook);
    if (!reason) continue;
    held.push({ webhookId: hook.id, url: hook.url, reason });
    if (!hook.enabled) continue;
    await deps.commandHandler.handle(
      webhookStreamId(workspaceId, hook.id),
      webhookDecider,
      { type: 'DisableWebhook', data: { reason } },
      context,
    );
  }
  const integrations = await integrationsOfWorkspace(deps.readStore, workspaceId);
  return { webhooks: hooks.length, held, integrations: integrations.length };
}

function heldBecause(secrets: SecretBox, hook: WebhookDoc): string | null {
  try {
    secrets.open(hook._secret, hook.id);
  } catch {
    return UNREADABLE_SECRET;
  }
  const consent = hook._grant ?? hook._legacyApp ?? null;
  if (!consent) return null;
  return appReason(
    'clientId' in consent ? `(client ${consent.clientId})` : `"${consent.clientName}"`,
  );
}
