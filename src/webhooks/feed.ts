/**
 * list_events: the workspace's messages in log order, straight from the event log (the log is
 * the feed; nothing is stored twice), each built exactly as a webhook carries it. A page reads
 * the log after the cursor in bounded chunks and stops at a full page, at the head, after
 * SCAN_LIMIT events of other workspaces — so a quiet workspace in a busy log answers quickly,
 * possibly with an empty page and a cursor further on — or once it has run for PAGE_BUDGET_MS,
 * so a slow store makes pages short, never minutes long (README: "A page may be short, even
 * empty, before the end"). Every page looks at one event at least: its cursor always moves on.
 * The head is fixed before reading and the read models are awaited up to it, so names are known
 * and the cursor never passes an event that was not looked at: paging while events arrive
 * yields each message exactly once. A first page (no cursor) starts at the workspace's creation:
 * nothing of it comes before, so a new workspace in an old log is not made to page through
 * the log's whole past.
 */
import { workspaceStreamId } from '../../commands/workspace/index.js';
import type { EventStore } from '../eventstore/types.js';
import type { Composer } from './messages/compose.js';
import { type FeedEventType, messageSourceOf } from './messages/event-types.js';
import type { Message } from './messages/message.js';

export const SCAN_LIMIT = 10_000;
/** from the page's start; an event being looked at when it runs out is finished first */
export const PAGE_BUDGET_MS = 5_000;
const CHUNK = 1_000;

export interface FeedQuery {
  workspaceId: string;
  /** exclusive: messages after this log position */
  after: bigint;
  types: ReadonlySet<FeedEventType> | null;
  productKey: string | null;
  pageSize: number;
}

export interface FeedPage {
  messages: Message[];
  /** where the next page starts: never behind `after` */
  next: bigint;
}

export interface FeedDeps {
  eventStore: EventStore;
  composer: Composer;
  waitFor(position: bigint): Promise<void>;
  /** PAGE_BUDGET_MS unless given */
  budgetMs?: number;
}

export async function readFeed(deps: FeedDeps, query: FeedQuery): Promise<FeedPage> {
  const deadline = performance.now() + (deps.budgetMs ?? PAGE_BUDGET_MS);
  const head = await deps.eventStore.headPosition();
  if (head <= query.after) return { messages: [], next: query.after };
  await deps.waitFor(head);
  const messages: Message[] = [];
  let cursor =
    query.after > 0n ? query.after : await creationOf(deps.eventStore, query.workspaceId);
  let scanned = 0;
  const late = () => scanned > 0 && performance.now() >= deadline;
  while (scanned < SCAN_LIMIT && !late()) {
    const events = await deps.eventStore.readAll({ after: cursor, maxCount: CHUNK });
    for (const event of events) {
      if (event.position > head || late()) return { messages, next: cursor };
      scanned++;
      cursor = event.position;
      const source = messageSourceOf(event);
      if (!source || source.workspaceId !== query.workspaceId) continue;
      if (query.types && !query.types.has(source.type)) continue;
      if (query.productKey && source.productKey !== query.productKey) continue;
      const message = await deps.composer.compose(event);
      if (message) messages.push(message);
      if (messages.length === query.pageSize) return { messages, next: cursor };
    }
    if (events.length < CHUNK || cursor >= head) break;
  }
  return { messages, next: cursor };
}

/** The position of the workspace's first event (its creation), or 0n when it has none. */
async function creationOf(eventStore: EventStore, workspaceId: string): Promise<bigint> {
  const [created] = await eventStore.readStream(workspaceStreamId(workspaceId), { maxCount: 1 });
  return created?.position ?? 0n;
}
