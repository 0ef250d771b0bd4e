/**
 * The message a webhook delivers and list_events answers (Standard Webhooks shape):
 * `{type, timestamp, data}`. For item.* and changelog.published the data names the workspace,
 * product and item, the item's `sequence` (its stream revision: every change of an item is one
 * message, so a receiver can order them and see a gap), the global `position`, who did it
 * (`actor`, `via`), the Item after the change and what changed, and `links` to the item.
 */
import type { ItemStatus } from '../../../commands/item/index.js';
import type { WebhookEventType } from '../../../commands/webhook/index.js';
import type { StoredChangelogEntry } from '../../../projections/changelog/projector.js';
import type { Item } from '../../../projections/items/document.js';
import type { Reply } from '../../../projections/replies/queries.js';
import type { ActorView } from '../../../projections/people/actor.js';

/** the entry as published; who is behind its names is not sent */
export type ChangelogEntry = Omit<StoredChangelogEntry, 'requestedBy'>;

/** Where a receiver can send a person (or its own code) to see the item. */
export interface ItemLinks {
  /** get_item on the feedback API */
  api: string;
  /** the item's page on the public board; only while the product is public */
  board?: string;
}

export interface ItemMessageData {
  messageId: string;
  workspace: string;
  productKey: string;
  itemKey: string;
  /** item.*: the item stream's revision; changelog.published: the entry stream's revision */
  sequence: number;
  /** global log position, as a string (it can exceed 2^53) */
  position: string;
  actor: ActorView;
  via?: string;
  item: Item;
  previousStatus?: ItemStatus;
  reply?: Reply;
  changedFields?: string[];
  tagIds?: string[];
  previousTagIds?: string[];
  /** item.merged / item.unmerged: the items folded into (or given back by) the survivor */
  mergedKeys?: string[];
  survivorKey?: string;
  notification?: { status: ItemStatus; message: string | null; notified: number; skipped: number };
  changelog?: ChangelogEntry;
  /** absent only from a webhooks-only process without FEEDBACK_BASE_URL (it knows no URL) */
  links?: ItemLinks;
}

export interface TestMessageData {
  messageId: string;
  workspace: string;
  webhookId: string;
  actor: ActorView;
  via?: string;
  note: string;
}

export interface Message {
  type: WebhookEventType;
  /** ISO 8601: when the change happened */
  timestamp: string;
  data: ItemMessageData | TestMessageData;
}

/** A message id is derived from the event's id: the same on every retry, redelivery, restart. */
export function messageIdOf(eventId: string): string {
  return `msg_${eventId.replaceAll('-', '')}`;
}
