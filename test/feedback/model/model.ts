/**
 * The reference the board model test compares the API with: one workspace's products and items
 * as plain data, built only from what the spec and the README promise a client. Each change of
 * an item is one revision (one event, one history entry, one feed message, one webhook message):
 * an update_item that edits the text and moves the status is two.
 */
export const STATUSES = ['new', 'planned', 'in-progress', 'shipped', 'declined'] as const;
export type Status = (typeof STATUSES)[number];
export const PRODUCTS = ['APP', 'WEB'] as const;
export type ProductKey = (typeof PRODUCTS)[number];
/** the workspace's makers: the owner is its admin, the member has the member role */
export type Actor = 'owner' | 'member';
/** who an item is from: a maker themself, or a customer a maker files for by address */
export type Submitter = Actor | 'ann' | 'bo';
export const CUSTOMERS = { ann: 'ann@customer.io', bo: 'bo@customer.io' } as const;
/** anyone on an item: submitters and the board visitors v0, v1 (who +1) */
export type Who = Submitter | 'v0' | 'v1';
/** README "Same-body fold": the same body from the same person on one product within 10 min */
export const FOLD_WINDOW_MS = 10 * 60 * 1000;

export const MESSAGE_TYPES = [
  'item.created',
  'item.status_changed',
  'item.replied',
  'item.updated',
  'item.tagged',
] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

export interface Snapshot {
  status: Status;
  title: string;
  body: string;
  tagIds: string[];
  plusOneCount: number;
  replyCount: number;
}

export interface Revision {
  type: MessageType;
  snap: Snapshot;
  /** the clock before the write was sent and after it was answered: its time lies between */
  t0: number;
  t1: number;
}

export interface ModelReply {
  id: string;
  body: string;
  parentId: string | null;
  author: Actor;
}

export interface ModelItem {
  key: string;
  product: ProductKey;
  number: number;
  submitter: Submitter;
  /** `pat:<token name>` of the maker who filed it */
  via: string;
  replies: ModelReply[];
  /** the +1s standing, in the order given */
  plusOnes: Who[];
  participants: { who: Who; role: 'submitted' | 'plus-one' }[];
  revisions: Revision[];
}

/** A keyed write answered 2xx: its retry must answer the same and change nothing. */
export interface KeyedWrite {
  actor: Actor;
  key: string;
  /** the resource the key was used on (the item, or the product for submit_feedback) */
  resource: string;
  method: 'post' | 'patch';
  path: string;
  body: Record<string, unknown>;
  status: number;
  answer: unknown;
}

export interface Model {
  next: Record<ProductKey, number>;
  items: ModelItem[];
  /** fold key (product, person, body) -> the first item and when it was filed */
  folds: Map<string, { itemKey: string; at: number }>;
  keyed: KeyedWrite[];
  /** ids and authors the API gave each person, learnt on first sight and held to after */
  personIds: Map<Who, string>;
  authors: Map<Submitter, unknown>;
}

export function emptyModel(): Model {
  return {
    next: { APP: 1, WEB: 1 },
    items: [],
    folds: new Map(),
    keyed: [],
    personIds: new Map(),
    authors: new Map(),
  };
}

export const now = (item: ModelItem): Snapshot => item.revisions.at(-1)!.snap;

export function revise(
  item: ModelItem,
  type: MessageType,
  change: Partial<Snapshot>,
  t: { t0: number; t1: number },
): void {
  item.revisions.push({ type, snap: { ...now(item), ...change }, ...t });
}

/** The item at `index` (commands carry indexes: they are generated before any item exists). */
export const pick = (model: Model, index: number): ModelItem =>
  model.items[index % model.items.length]!;

/** Spec: "when the submitter left it blank, derived from the opening of the body at capture" */
export function derivedTitle(body: string): string {
  const line = body
    .split(/\r?\n/)
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .find(Boolean);
  return line ?? '';
}

/** README "Text": a tag is one tag however it is spaced or composed (NFC, trimmed). */
export function tagSet(tags: string[]): string[] {
  return [...new Set([...new Set(tags)].map((t) => t.normalize('NFC').trim()))];
}

export interface ListFilters {
  status?: Status;
  tag?: string;
  personOf?: Who;
}

/** list_items: the product's items, newest first (all created in order here: highest number first). */
export function listed(model: Model, product: ProductKey, filters: ListFilters): string[] {
  return model.items
    .filter((item) => item.product === product)
    .filter((item) => !filters.status || now(item).status === filters.status)
    .filter((item) => !filters.tag || now(item).tagIds.includes(tagSet([filters.tag])[0]!))
    .filter(
      (item) => !filters.personOf || item.participants.some((p) => p.who === filters.personOf),
    )
    .sort((a, b) => b.number - a.number)
    .map((item) => item.key);
}

/** What get_item must show of the Item record, field by field (times are checked apart). */
export function expectedItem(model: Model, item: ModelItem): Record<string, unknown> {
  const snap = now(item);
  const expected: Record<string, unknown> = {
    id: item.key,
    productId: item.product,
    ...snap,
    via: item.via,
    notifiedAt: null,
  };
  const createdBy = model.personIds.get(item.submitter);
  if (createdBy) expected.createdBy = createdBy;
  const author = model.authors.get(item.submitter);
  if (author) expected.author = author;
  return expected;
}

/** The Snapshot fields of an API Item, to compare with a revision. */
export function snapOf(item: Record<string, any>): Snapshot {
  const { status, title, body, tagIds, plusOneCount, replyCount } = item;
  return { status, title, body, tagIds, plusOneCount, replyCount };
}
