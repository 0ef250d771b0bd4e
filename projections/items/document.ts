import { memoizedJson } from '../shared/raw-json.js';
import type { ItemStatus, ParticipantRole } from '../../commands/item/index.js';
import type { Collection, Doc, ReadStore } from '../../src/readstore/types.js';

export interface ItemAuthor {
  tier: 'anonymous' | 'email' | 'google';
  displayName: string | null;
  avatar: string | null;
}

/** The spec's Item record: every field always present except `via` (absent, never empty). */
export interface Item {
  id: string;
  productId: string;
  status: ItemStatus;
  title: string;
  body: string;
  rank: string;
  tagIds: string[];
  plusOneCount: number;
  replyCount: number;
  author: ItemAuthor;
  via?: string;
  notifiedAt: number | null;
  statusChangedAt: number | null;
  createdAt: number;
  createdBy: string;
  updatedAt: number;
}

export interface StoredParticipant {
  personId: string;
  role: ParticipantRole;
  /** why they are here when it is not obvious, e.g. `merged from ACME-2` */
  context: string | null;
}

/** Who spoke last on the thread (submitting counts as speaking); for awaitingReply/repliesOwed. */
export interface LastSpeaker {
  kind: 'person' | 'maker' | 'agent';
  id: string;
  at: number;
}

/** A person whose question on a merged thread nobody answered yet. */
export interface CarriedWaiter {
  id: string;
  at: number;
  from: string;
}

/** Internal fields start with `_`; the API strips them (see toItem). */
export type ItemDoc = Doc &
  Item & {
    _ws: string;
    _n: number;
    /** the survivor's key once merged; null otherwise. Merged items leave every listing. */
    _mergedInto: string | null;
    /** true once the survivor recorded this merge (false = a merge to complete, see actions/merge) */
    _mergeRecorded: boolean;
    /** true once the survivor gave this item back, until the item took it (see actions/unmerge) */
    _unmergePending?: boolean;
    _mergedKeys: string[];
    _submitterId: string;
    _plusOnes: string[];
    /** every person on the item (submitter, +1s, repliers): the personId filter */
    _people: string[];
    _participants: StoredParticipant[];
    _lastSpeaker: LastSpeaker;
    /**
     * people still waiting from threads merged into this one (see waiting.ts): each entry names
     * the item merged directly into this one it came with (`from`), so an unmerge takes it back
     */
    _carriedWaiting: CarriedWaiter[];
    /** the status the last notification was about */
    _notifiedStatus: ItemStatus | null;
    /**
     * a notification was recorded after the last status change: event order, which times
     * cannot tell (two events in one millisecond, or stamped alike after the clock was set back);
     * false again when a merge brought people nobody told (ItemsMerged `untold`)
     */
    _announced: boolean;
  };

export const ITEMS = 'items';
export const itemsOf = (s: ReadStore): Collection<ItemDoc> => s.collection(ITEMS);
export const itemDocId = (workspaceId: string, itemKey: string): string =>
  `${workspaceId}.${itemKey}`;

/**
 * The spec's Item, exactly: built as one literal (a fixed field order and shape, which is also
 * the cheapest to build and serialize on the list_items path); `via` only when there is one.
 */
export function toItem(doc: ItemDoc): Item {
  const item: Item = {
    id: doc.id,
    productId: doc.productId,
    status: doc.status,
    title: doc.title,
    body: doc.body,
    rank: doc.rank,
    tagIds: doc.tagIds,
    plusOneCount: doc.plusOneCount,
    replyCount: doc.replyCount,
    author: doc.author,
    notifiedAt: doc.notifiedAt,
    statusChangedAt: doc.statusChangedAt,
    createdAt: doc.createdAt,
    createdBy: doc.createdBy,
    updatedAt: doc.updatedAt,
  };
  return doc.via === undefined ? item : { ...item, via: doc.via };
}

/** The Item's JSON text, serialized once per stored (frozen, never-changing) document. */
export const itemJson = memoizedJson(toItem);

const MAX = 2 ** 53 - 1;
const pad = (n: number): string => n.toString(36).padStart(11, '0');

/**
 * Opaque ordering value: ascending rank = newest first, ties by item number (newest first).
 * Unique within a product and never changed after capture, so keyset paging over it neither
 * repeats nor skips an item while new ones arrive (they sort before every cursor).
 */
export function rankOf(createdAt: number, number: number): string {
  return `${pad(MAX - Math.max(0, createdAt))}${pad(MAX - number)}`;
}
