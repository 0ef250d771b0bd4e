import type { AuthorKind, ItemEvent } from '../../commands/item/index.js';
import type { Collection, Doc, ReadStore } from '../../src/readstore/types.js';
import { insertOnce, positionKey } from '../shared/guard.js';
import type { Projector } from '../shared/projector.js';
import { asRecorded } from '../shared/recorded.js';

export interface ReplyDoc extends Doc {
  id: string;
  itemId: string;
  productId: string;
  authorKind: AuthorKind;
  authorId: string;
  authorName: string | null;
  authorAvatar: string | null;
  parentId: string | null;
  body: string;
  createdAt: number;
  _ws: string;
  /** log order: replies in one millisecond still list in the order they were written */
  _seq: string;
}

export const REPLIES = 'replies';
export const repliesOf = (s: ReadStore): Collection<ReplyDoc> => s.collection(REPLIES);

export function repliesProjector(): Projector {
  return {
    name: 'replies',
    collections: [REPLIES],
    filter: { eventTypes: ['ItemReplied'] },
    async setup(store) {
      await repliesOf(store).createIndex({
        keys: { _ws: 1, itemId: 1, _seq: 1 },
        name: 'replies_item',
      });
    },
    async apply(raw, store) {
      const event = asRecorded<ItemEvent>(raw);
      if (event.type !== 'ItemReplied') return;
      const [workspaceId, itemKey] = event.streamId.slice('item-'.length).split('.') as [
        string,
        string,
      ];
      await insertOnce(
        repliesOf(store),
        {
          _id: `${workspaceId}.${event.data.replyId}`,
          ...event.data,
          id: event.data.replyId,
          itemId: itemKey,
          productId: itemKey.slice(0, itemKey.indexOf('-')),
          createdAt: event.metadata.occurredAt,
          _ws: workspaceId,
          _seq: positionKey(event.position),
        },
        event.position,
      );
    },
  };
}
