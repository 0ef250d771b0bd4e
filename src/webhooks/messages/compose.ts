/**
 * Builds the message of one event of the log. The item is the one right after the event, folded
 * from its own stream (fold-cache.ts), so a worker running behind — or a list_events reader far
 * in the past — describes each change as it was at its position, not the item as it is now.
 * A person actor is named as they were named then (person-names.ts). The
 * workspace slug, a maker's or an app's name and whether the item has a public board page
 * (`links.board`: the product is public) are read from the read models as they are when the
 * message is built.
 */
import type { ChangelogEvent } from '../../../commands/changelog/index.js';
import type { ItemEvent } from '../../../commands/item/index.js';
import { toItem } from '../../../projections/items/document.js';
import { asRecorded, type Recorded } from '../../../projections/shared/recorded.js';
import { getProduct } from '../../../projections/products/queries.js';
import { workspaceById } from '../../../projections/workspaces/queries.js';
import type { EventStore, RecordedEvent } from '../../eventstore/types.js';
import { describeActor } from '../../../projections/people/actor.js';
import { personNamesAt } from './person-names.js';
import type { ReadStore } from '../../readstore/types.js';
import { type ItemFold, createItemFolds } from './fold-cache.js';
import { messageSourceOf, type MessageSource } from './event-types.js';
import {
  type ChangelogEntry,
  type ItemLinks,
  type ItemMessageData,
  type Message,
  messageIdOf,
} from './message.js';

/** The origins links are built on, without a trailing slash; null while none is known. */
export interface LinkBases {
  /** the feedback API (FEEDBACK_BASE_URL, or where it listens) */
  api: string;
  /** the public board (PUBLIC_BASE_URL, default the API's) */
  board: string;
}

export interface Composer {
  /** null when the event is not a message (or its item cannot be found) */
  compose(event: RecordedEvent): Promise<Message | null>;
  slugOf(workspaceId: string): Promise<string | null>;
}

export function createComposer(deps: {
  eventStore: EventStore;
  readStore: ReadStore;
  linkBases?: () => LinkBases | null;
}): Composer {
  const folds = createItemFolds(deps.eventStore);
  const nameAt = personNamesAt(deps.eventStore);
  const slugs = new Map<string, string>();

  async function slugOf(workspaceId: string): Promise<string | null> {
    const known = slugs.get(workspaceId);
    if (known) return known;
    const workspace = await workspaceById(deps.readStore, workspaceId);
    if (workspace) slugs.set(workspaceId, workspace.slug);
    return workspace?.slug ?? null;
  }

  async function linksOf(workspaceId: string, slug: string, source: MessageSource) {
    const bases = deps.linkBases?.();
    if (!bases) return {};
    const { productKey, itemKey } = source;
    const links: ItemLinks = {
      api: `${bases.api}/v1/workspaces/${slug}/products/${productKey}/items/${itemKey}`,
    };
    const product = await getProduct(deps.readStore, { workspaceId, key: productKey });
    if (product?.visibility === 'public') {
      links.board = `${bases.board}/${slug}/${productKey}/items/${itemKey}`;
    }
    return { links };
  }

  /**
   * who acted, a person (also one an OAuth client acted for) under the name they had then
   * (person-names.ts)
   */
  async function actorAt(workspaceId: string, event: RecordedEvent) {
    const actor = await describeActor(deps.readStore, workspaceId, event.metadata);
    const { actingFor } = actor;
    if (actingFor?.kind === 'person') {
      const then = await nameAt(actingFor.id, event.position);
      return then === undefined ? actor : { ...actor, actingFor: { ...actingFor, name: then } };
    }
    if (actor.kind !== 'person' || !actor.id) return actor;
    const then = await nameAt(actor.id, event.position);
    return then === undefined ? actor : { ...actor, name: then };
  }

  async function compose(event: RecordedEvent): Promise<Message | null> {
    const source = messageSourceOf(event);
    if (!source) return null;
    const slug = await slugOf(source.workspaceId);
    if (!slug) return null;
    const common = {
      messageId: messageIdOf(event.id),
      workspace: slug,
      productKey: source.productKey,
      itemKey: source.itemKey,
      sequence: event.revision,
      position: event.position.toString(),
      actor: await actorAt(source.workspaceId, event),
      ...(event.metadata.via ? { via: event.metadata.via } : {}),
      ...(await linksOf(source.workspaceId, slug, source)),
    };
    const data =
      source.stream === 'item'
        ? itemData(asRecorded<ItemEvent>(event), await folds.around(event), common)
        : await changelogData(asRecorded<ChangelogEvent>(event), source, common);
    if (!data) return null;
    return {
      type: source.type,
      timestamp: new Date(event.metadata.occurredAt).toISOString(),
      data,
    };
  }

  async function changelogData(
    event: Recorded<ChangelogEvent>,
    source: MessageSource,
    common: Omit<ItemMessageData, 'item'>,
  ): Promise<ItemMessageData | null> {
    const itemStream = `item-${source.workspaceId}.${source.itemKey}`;
    const item = await folds.before(itemStream, event.position);
    const entries = await deps.eventStore.readStream(event.streamId, {
      maxCount: event.revision + 1,
    });
    const changelog = foldEntry(entries.map((e) => asRecorded<ChangelogEvent>(e)));
    if (!item || !changelog) return null;
    return { ...common, item: toItem(item), changelog };
  }

  return { compose, slugOf };
}

function itemData(
  event: Recorded<ItemEvent>,
  fold: ItemFold,
  common: Omit<ItemMessageData, 'item'>,
): ItemMessageData | null {
  const { before, after } = fold;
  if (!after) return null;
  const data: ItemMessageData = { ...common, item: toItem(after) };
  switch (event.type) {
    case 'ItemCaptured':
      return data;
    case 'ItemStatusChanged':
      return { ...data, previousStatus: event.data.from };
    case 'ItemReplied': {
      const reply = event.data;
      const record = {
        id: reply.replyId,
        itemId: after.id,
        productId: after.productId,
        authorKind: reply.authorKind,
        authorId: reply.authorId,
        authorName: reply.authorName,
        authorAvatar: reply.authorAvatar,
        parentId: reply.parentId,
        body: reply.body,
        createdAt: event.metadata.occurredAt,
      };
      return { ...data, reply: record };
    }
    case 'ItemEdited':
      return { ...data, changedFields: Object.keys(event.data).sort() };
    case 'PlusOneAdded':
    case 'PlusOneWithdrawn':
      return { ...data, changedFields: ['plusOneCount'] };
    case 'ItemTagged':
      return { ...data, tagIds: event.data.tagIds, previousTagIds: before?.tagIds ?? [] };
    case 'ItemMergedInto':
      return { ...data, mergedKeys: [after.id], survivorKey: event.data.survivorKey };
    case 'ItemsMerged':
      return {
        ...data,
        mergedKeys: event.data.merged.map((m) => m.itemKey),
        survivorKey: after.id,
      };
    case 'ItemUnmerged':
      return { ...data, mergedKeys: [after.id], survivorKey: event.data.survivorKey };
    case 'ItemsUnmerged':
      return {
        ...data,
        mergedKeys: event.data.unmerged.map((m) => m.itemKey),
        survivorKey: after.id,
      };
    case 'PeopleNotified': {
      const { status, message, recipients } = event.data;
      const notified = recipients.filter((r) => r.delivered).length;
      return {
        ...data,
        notification: {
          status,
          message: message ?? null,
          notified,
          skipped: recipients.length - notified,
        },
      };
    }
    default: {
      const _exhaustive: never = event;
      return null;
    }
  }
}

/** The changelog entry after its stream's last event (published, then revised). */
function foldEntry(events: Recorded<ChangelogEvent>[]): ChangelogEntry | null {
  let entry = null as ChangelogEntry | null;
  for (const event of events) {
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'ChangelogEntryPublished': {
        const {
          entryId,
          workspaceId: _ws,
          productKey,
          itemKey,
          requestedBy: _,
          ...fields
        } = event.data;
        entry = {
          id: entryId,
          productId: productKey,
          itemId: itemKey,
          ...fields,
          publishedAt: at,
          updatedAt: at,
        };
        break;
      }
      case 'ChangelogEntryRevised': {
        const { requestedBy: _, ...revised } = event.data;
        if (entry) entry = { ...entry, ...revised, updatedAt: at };
        break;
      }
      default: {
        const _exhaustive: never = event;
      }
    }
  }
  return entry;
}
