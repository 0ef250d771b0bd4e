/**
 * Changes of a webhook's stream for the audit trail: who pointed the workspace's messages at
 * which URL, with which filters, who paused, resumed, re-keyed or deleted it.
 *
 * The fields compared are the webhook as an admin sees it (the Webhook record's settings) plus
 * `appClientId`, the OAuth app whose grant set the URL (null: a maker's own credential), before
 * and after the event, folded by the webhook's own evolve. They are picked one by one, so the
 * signing secret — sealed in WebhookCreated and WebhookSecretRotated — never reaches an answer.
 */
import {
  evolveWebhook,
  initialWebhookState,
  type WebhookEvent,
  type WebhookState,
} from '../../../commands/webhook/index.js';
import { asRecorded, type Recorded } from '../../../projections/shared/recorded.js';
import type { RecordedEvent } from '../../eventstore/types.js';
import type { ActorView } from '../../../projections/people/actor.js';
import { actorWord, type Change, changeOf, diff } from './change.js';
import { excerpt, listOf, quoted } from './words.js';

interface WebhookView extends Record<string, unknown> {
  url: string;
  description: string;
  eventTypes: string[] | null;
  productKeys: string[] | null;
  enabled: boolean;
  disabledReason: string | null;
  appClientId: string | null;
}

export function webhookChange(
  raw: RecordedEvent,
  earlierRaw: readonly RecordedEvent[],
  actor: ActorView,
): Change {
  const event = asRecorded<WebhookEvent>(raw);
  let state = initialWebhookState();
  for (const e of earlierRaw) state = evolveWebhook(state, asRecorded<WebhookEvent>(e));
  const before = viewOf(state);
  const after = viewOf(evolveWebhook(state, event));
  const webhookId = raw.streamId.slice(raw.streamId.lastIndexOf('.') + 1);
  const summary = sentence(event, `the webhook ${webhookId}`, actorWord(actor), before, after);
  return changeOf(raw, { itemKey: null, actor, summary, changes: diff(before, after) });
}

function viewOf(state: WebhookState): WebhookView | null {
  if (state.status === 'absent' || state.status === 'deleted') return null;
  return {
    url: state.url,
    description: state.description,
    eventTypes: state.eventTypes,
    productKeys: state.productKeys,
    enabled: state.status === 'enabled',
    disabledReason: state.status === 'disabled' ? state.reason : null,
    appClientId: state.grant?.clientId ?? null,
  };
}

function sentence(
  event: Recorded<WebhookEvent>,
  webhook: string,
  who: string,
  before: WebhookView | null,
  after: WebhookView | null,
): string {
  switch (event.type) {
    case 'WebhookCreated': {
      const { url, eventTypes, productKeys } = event.data;
      return `${who} created ${webhook}, sending ${typesOf(eventTypes)} of ${productsOf(productKeys)} to ${urlOf(url)}`;
    }
    case 'WebhookUpdated': {
      const parts: string[] = [];
      const { data } = event;
      if (data.url !== undefined) {
        parts.push(`its URL from ${urlOf(before?.url ?? '')} to ${urlOf(data.url)}`);
      }
      if (data.eventTypes !== undefined) parts.push(`its messages to ${typesOf(data.eventTypes)}`);
      if (data.productKeys !== undefined) {
        parts.push(`its products to ${productsOf(data.productKeys)}`);
      }
      if (data.description !== undefined) {
        parts.push(`its description to ${quoted(data.description)}`);
      }
      return parts.length > 0
        ? `${who} changed ${webhook}: ${listOf(parts)}`
        : `${who} changed ${webhook}`;
    }
    case 'WebhookDisabled':
      return event.data.reason
        ? `${who} disabled ${webhook}: ${event.data.reason}`
        : `${who} disabled ${webhook}`;
    case 'WebhookEnabled':
      return `${who} enabled ${webhook} again`;
    case 'WebhookSecretRotated': {
      const until = new Date(event.data.previousValidUntil).toISOString();
      return `${who} rotated the signing secret of ${webhook} (the replaced one signs until ${until})`;
    }
    case 'WebhookDeleted':
      return `${who} deleted ${webhook}, which sent to ${urlOf(before?.url ?? after?.url ?? '')}`;
    default: {
      const _exhaustive: never = event;
      return `${who} changed ${webhook}`;
    }
  }
}

const urlOf = (url: string) => excerpt(url, 120);

function typesOf(types: readonly string[] | null): string {
  return types === null ? 'every message' : `${listOf(types)} messages`;
}

function productsOf(keys: readonly string[] | null): string {
  return keys === null ? 'every product' : listOf(keys);
}
