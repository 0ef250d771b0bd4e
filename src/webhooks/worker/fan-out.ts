/**
 * Turns one event of the log into deliveries: for each webhook of the workspace that existed
 * before the event and whose filters match, one pending delivery (the same id however often the
 * event is handled). Disabled webhooks get theirs too — paused, so re-enabling resumes from
 * where the webhook stopped and nothing is lost.
 */
import { positionKey } from '../../../projections/shared/guard.js';
import type { WebhookDoc } from '../../../projections/webhooks/document.js';
import { webhooksOf } from '../../../projections/webhooks/document.js';
import type { RecordedEvent } from '../../eventstore/types.js';
import { DuplicateKeyError, type ReadStore } from '../../readstore/types.js';
import { type DeliveryDoc, deliveriesOf, newDelivery } from '../delivery/records.js';
import type { Composer } from '../messages/compose.js';
import { type MessageSource, messageSourceOf } from '../messages/event-types.js';

export interface FanOutDeps {
  readStore: ReadStore;
  composer: Composer;
  now(): number;
  /** resolves once the read models include `position` (names, webhooks) */
  waitFor(position: bigint): Promise<void>;
  /** a message body was built (kept for the first attempts) */
  remember(messageId: string, body: string): void;
}

export function createFanOut(deps: FanOutDeps) {
  /** each workspace's webhooks; dropped when the worker meets a change to one of them */
  const hooks = new Map<string, WebhookDoc[]>();

  async function hooksOf(workspaceId: string, position: bigint): Promise<WebhookDoc[]> {
    const known = hooks.get(workspaceId);
    if (known) return known;
    await deps.waitFor(position);
    const found = await webhooksOf(deps.readStore).find({ _ws: workspaceId, _deleted: false });
    hooks.set(workspaceId, found);
    return found;
  }

  return {
    forget(workspaceId: string): void {
      hooks.delete(workspaceId);
    },

    /** the new deliveries of this event (already stored) */
    async deliveriesOf(event: RecordedEvent): Promise<{ doc: DeliveryDoc; enabled: boolean }[]> {
      const source = messageSourceOf(event);
      if (!source) return [];
      const at = positionKey(event.position);
      const matching = (await hooksOf(source.workspaceId, event.position)).filter(
        (hook) => hook._createdPos < at && matches(filtersAt(hook, at), source),
      );
      if (matching.length === 0) return [];
      await deps.waitFor(event.position);
      const message = await deps.composer.compose(event);
      if (!message) return [];
      deps.remember(message.data.messageId, JSON.stringify(message));
      const created: { doc: DeliveryDoc; enabled: boolean }[] = [];
      for (const hook of matching) {
        const doc = newDelivery({
          hookKey: hook._id,
          webhookId: hook.id,
          workspaceId: source.workspaceId,
          messageId: message.data.messageId,
          eventType: source.type,
          now: deps.now(),
          position: event.position,
          source: { streamId: event.streamId, revision: event.revision },
          payload: null,
          correlationId: event.metadata.correlationId,
        });
        try {
          await deliveriesOf(deps.readStore).insertOne(doc);
          created.push({ doc, enabled: hook.enabled });
        } catch (error) {
          // handled before a restart: that delivery exists and keeps its own state
          if (!(error instanceof DuplicateKeyError)) throw error;
        }
      }
      return created;
    },
  };
}

/**
 * The filters the event met when it was appended: a change made since (while the worker was
 * behind) applies from its own position on, as the webhook's creation does (`_createdPos`).
 */
function filtersAt(hook: WebhookDoc, at: string): Filters {
  return hook._filtersBefore?.find((before) => at < before.until) ?? hook;
}

type Filters = Pick<WebhookDoc, 'eventTypes' | 'productKeys'>;

function matches(hook: Filters, source: MessageSource): boolean {
  if (hook.eventTypes && !hook.eventTypes.includes(source.type)) return false;
  if (hook.productKeys && !hook.productKeys.includes(source.productKey)) return false;
  return true;
}
