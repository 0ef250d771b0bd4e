/**
 * Which message an event of the log becomes. Every event of an item's stream is one message, so
 * the item's `sequence` has no holes a receiver could mistake for a lost message; +1s (given or
 * withdrawn) and title or body edits are `item.updated`, and a merge is `item.merged` on both the survivor and each
 * merged item (an unmerge likewise `item.unmerged`). Changelog publications (first or revised) are `changelog.published`.
 */
import type { ChangelogEvent } from '../../../commands/changelog/index.js';
import type { ItemEvent } from '../../../commands/item/index.js';
import type { WebhookEventType } from '../../../commands/webhook/index.js';

export type FeedEventType = Exclude<WebhookEventType, 'webhook.test'>;

export function itemMessageType(type: ItemEvent['type']): FeedEventType | null {
  switch (type) {
    case 'ItemCaptured':
      return 'item.created';
    case 'ItemStatusChanged':
      return 'item.status_changed';
    case 'ItemReplied':
      return 'item.replied';
    case 'ItemEdited':
    case 'PlusOneAdded':
    case 'PlusOneWithdrawn':
      return 'item.updated';
    case 'ItemTagged':
      return 'item.tagged';
    case 'ItemMergedInto':
    case 'ItemsMerged':
      return 'item.merged';
    case 'ItemUnmerged':
    case 'ItemsUnmerged':
      return 'item.unmerged';
    case 'PeopleNotified':
      return 'item.notified';
    default: {
      // a type this code does not know yet (an older process reading a newer log) sends nothing
      const _exhaustive: never = type;
      return null;
    }
  }
}

export function changelogMessageType(type: ChangelogEvent['type']): FeedEventType | null {
  switch (type) {
    case 'ChangelogEntryPublished':
    case 'ChangelogEntryRevised':
      return 'changelog.published';
    default: {
      // a type this code does not know yet (an older process reading a newer log) sends nothing
      const _exhaustive: never = type;
      return null;
    }
  }
}

/** Where an event of the log belongs, when it becomes a message at all. */
export interface MessageSource {
  type: FeedEventType;
  workspaceId: string;
  /** the item the message is about */
  itemKey: string;
  productKey: string;
  stream: 'item' | 'changelog';
}

const ITEM_STREAM = /^item-([^.]+)\.(([A-Z]{3,5})-[1-9]\d*)$/;
const CHANGELOG_STREAM = /^changelog-([^.]+)\.(([A-Z]{3,5})-[1-9]\d*)$/;

export function messageSourceOf(event: { streamId: string; type: string }): MessageSource | null {
  const item = ITEM_STREAM.exec(event.streamId);
  if (item) {
    const type = itemMessageType(event.type as ItemEvent['type']);
    if (!type) return null;
    return {
      type,
      workspaceId: item[1]!,
      itemKey: item[2]!,
      productKey: item[3]!,
      stream: 'item',
    };
  }
  const entry = CHANGELOG_STREAM.exec(event.streamId);
  if (entry) {
    const type = changelogMessageType(event.type as ChangelogEvent['type']);
    if (!type) return null;
    return {
      type,
      workspaceId: entry[1]!,
      itemKey: entry[2]!,
      productKey: entry[3]!,
      stream: 'changelog',
    };
  }
  return null;
}
