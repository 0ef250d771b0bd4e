import type { ReadStore } from '../../src/readstore/types.js';
import { type ReplyDoc, repliesOf } from './projector.js';

/** Spec "Reply": all fields required, no others. */
export interface Reply {
  id: string;
  itemId: string;
  productId: string;
  authorKind: ReplyDoc['authorKind'];
  authorId: string;
  authorName: string | null;
  authorAvatar: string | null;
  parentId: string | null;
  body: string;
  createdAt: number;
}

export function toReply(doc: ReplyDoc): Reply {
  const {
    id,
    itemId,
    productId,
    authorKind,
    authorId,
    authorName,
    authorAvatar,
    parentId,
    body,
    createdAt,
  } = doc;
  return {
    id,
    itemId,
    productId,
    authorKind,
    authorId,
    authorName,
    authorAvatar,
    parentId,
    body,
    createdAt,
  };
}

/** list_replies: the whole thread in the order it was written. */
export async function listReplies(
  store: ReadStore,
  query: { workspaceId: string; itemKey: string },
): Promise<Reply[]> {
  const docs = await repliesOf(store).find(
    { _ws: query.workspaceId, itemId: query.itemKey },
    { sort: { _seq: 1 } },
  );
  return docs.map(toReply);
}
