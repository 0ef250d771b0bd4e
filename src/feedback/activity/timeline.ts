/**
 * An item as it stood at any revision, rebuilt from the log by the read models' own projectors
 * (items, replies, people) run in memory over the item's stream plus the events of the people on
 * it — so get_item's query answers about the past exactly as it answered then, and how an event
 * changes an item stays written once, in the projectors.
 *
 * "As it stood at revision r" is the log up to the position of the item's revision r: the item's
 * events up to r and its people's events up to that position (a person renamed later is shown
 * with the name they had then). "As it stood at a moment" adds the people's events up to that
 * moment (`peopleUntil`): get_item then already showed a rename that came after the revision.
 *
 * Snapshots (the choice issue 15 allows): every SNAPSHOT_EVERY revisions a replay keeps the
 * in-memory read models (frozen documents, shared — one map copy per collection), so a later
 * question replays at most that many events. Timelines are cached per item (least recently used,
 * bounded); the log only grows, so what a snapshot holds never goes stale. Each question still
 * reads the item stream's tail, so new revisions are always seen.
 */
import type { ItemEvent } from '../../../commands/item/index.js';
import { itemStreamId } from '../../../commands/item/index.js';
import { personStreamId } from '../../../commands/person/index.js';
import { itemsProjector } from '../../../projections/items/projector.js';
import { PEOPLE, peopleProjector } from '../../../projections/people/projector.js';
import { repliesProjector } from '../../../projections/replies/projector.js';
import type { Projector } from '../../../projections/shared/projector.js';
import { asRecorded } from '../../../projections/shared/recorded.js';
import { type EventStore, matchesFilter, type RecordedEvent } from '../../eventstore/types.js';
import {
  createMemoryReadStore,
  type MemoryReadStore,
  type MemorySnapshot,
} from '../../readstore/embedded/memory.js';

export const SNAPSHOT_EVERY = 64;
const CACHED_ITEMS = 32;

/** Called after the item's revision `revision` was applied, with the read models at that point. */
export type Visit = (revision: number, store: MemoryReadStore) => Promise<void>;

interface PersonLog {
  events: RecordedEvent[];
  /** the log's head when it was read: complete for every position up to here */
  readAt: bigint;
}

interface Timeline {
  events: RecordedEvent[];
  snapshots: Map<number, MemorySnapshot>;
  people: Map<string, PersonLog>;
}

export interface ItemTimelines {
  /** The item's events, oldest first, in their current shapes (empty: no such item). */
  events(workspaceId: string, itemKey: string): Promise<readonly RecordedEvent[]>;
  /**
   * Replays the item up to the largest revision in `revisions`, calling `visit` after each of
   * them (in order). Revisions beyond the item's last are ignored.
   */
  replay(
    workspaceId: string,
    itemKey: string,
    revisions: Iterable<number>,
    visit: Visit,
    options?: ReplayOptions,
  ): Promise<void>;
}

export interface ReplayOptions {
  /**
   * A moment (ms): the last revision is visited as the log stood then, with its people's events
   * up to that moment too — a person renamed after the item's last change but before `at` shows
   * with their new name, as get_item showed them at `at`.
   */
  peopleUntil?: number;
}

export function createItemTimelines(deps: { eventStore: EventStore }): ItemTimelines {
  const cache = new Map<string, Timeline>();
  // People docs only: the people projector's per-item rows are not part of get_item.
  const projectors: { projector: Projector; personOnly: boolean }[] = [
    { projector: itemsProjector(), personOnly: false },
    { projector: repliesProjector(), personOnly: false },
    { projector: peopleProjector(), personOnly: true },
  ];

  async function timelineOf(workspaceId: string, itemKey: string): Promise<Timeline> {
    const streamId = itemStreamId(workspaceId, itemKey);
    let timeline = cache.get(streamId);
    if (timeline) cache.delete(streamId);
    timeline ??= { events: [], snapshots: new Map(), people: new Map() };
    cache.set(streamId, timeline);
    if (cache.size > CACHED_ITEMS) cache.delete(cache.keys().next().value as string);
    const tail = await deps.eventStore.readStream(streamId, {
      fromRevision: timeline.events.length,
    });
    for (const event of tail)
      if (event.revision === timeline.events.length) timeline.events.push(event);
    return timeline;
  }

  async function personLog(timeline: Timeline, personId: string, upTo: bigint): Promise<PersonLog> {
    const known = timeline.people.get(personId);
    if (known && known.readAt >= upTo) return known;
    const readAt = await deps.eventStore.headPosition();
    const events = await deps.eventStore.readStream(personStreamId(personId));
    const log = { events, readAt };
    timeline.people.set(personId, log);
    return log;
  }

  async function apply(event: RecordedEvent, store: MemoryReadStore): Promise<void> {
    const isPerson = event.streamId.startsWith('person-');
    for (const { projector, personOnly } of projectors) {
      if (personOnly !== isPerson) continue;
      if (matchesFilter(event, projector.filter)) await projector.apply(event, store);
    }
  }

  return {
    async events(workspaceId, itemKey) {
      return (await timelineOf(workspaceId, itemKey)).events;
    },

    async replay(workspaceId, itemKey, revisions, visit, options = {}) {
      const timeline = await timelineOf(workspaceId, itemKey);
      const { events } = timeline;
      const wanted = new Set([...revisions].filter((r) => r >= 0 && r < events.length));
      if (wanted.size === 0) return;
      const first = Math.min(...wanted);
      const last = Math.max(...wanted);
      let start = -1;
      for (const revision of timeline.snapshots.keys()) {
        if (revision <= first && revision > start) start = revision;
      }
      const store = createMemoryReadStore(timeline.snapshots.get(start));
      const from = start < 0 ? 0n : events[start]!.position;
      const to = events[last]!.position;
      const { peopleUntil } = options;
      // everything up to the head: a moment may lie past the item's last event
      const upTo = peopleUntil === undefined ? to : await deps.eventStore.headPosition();
      const itemEvents = events.slice(start + 1, last + 1);
      const known = new Set(
        (await store.collection(PEOPLE).find({}, { projection: { _id: 1 } })).map((d) => d._id),
      );
      const named = new Set<string>(known);
      for (const event of itemEvents) for (const id of peopleNamedBy(event)) named.add(id);
      const personEvents: RecordedEvent[] = [];
      // people's events after the last revision and no later than `peopleUntil`
      const late: RecordedEvent[] = [];
      for (const personId of named) {
        const log = await personLog(timeline, personId, upTo);
        const after = known.has(personId) ? from : -1n;
        for (const e of log.events) {
          if (e.position > after && e.position <= to) personEvents.push(e);
          else if (e.position > to && peopleUntil !== undefined) {
            if (e.metadata.occurredAt <= peopleUntil) late.push(e);
          }
        }
      }
      const byPosition = (a: RecordedEvent, b: RecordedEvent) =>
        a.position < b.position ? -1 : a.position > b.position ? 1 : 0;
      personEvents.sort(byPosition);
      late.sort(byPosition);
      const visitAt = async (revision: number) => {
        if (!wanted.has(revision)) return;
        // (after any snapshot of this revision was taken: the snapshot is the log at the revision)
        if (revision === last) for (const event of late) await apply(event, store);
        await visit(revision, store);
      };
      await visitAt(start);
      let p = 0;
      for (const event of itemEvents) {
        while (p < personEvents.length && personEvents[p]!.position < event.position) {
          await apply(personEvents[p++]!, store);
        }
        await apply(event, store);
        const revision = event.revision;
        if ((revision + 1) % SNAPSHOT_EVERY === 0 && !timeline.snapshots.has(revision)) {
          timeline.snapshots.set(revision, store.snapshot());
        }
        await visitAt(revision);
      }
    },
  };
}

/** The people an item event brings onto the item (whose names get_item shows). */
function peopleNamedBy(raw: RecordedEvent): string[] {
  const event = asRecorded<ItemEvent>(raw);
  switch (event.type) {
    case 'ItemCaptured':
      return [event.data.author.personId];
    case 'PlusOneAdded':
    case 'PlusOneWithdrawn':
      return [event.data.personId];
    case 'ItemReplied':
      return event.data.authorKind === 'person' ? [event.data.authorId] : [];
    case 'ItemsMerged':
      return event.data.merged.flatMap((m) => m.addedPeople.map((p) => p.personId));
    case 'ItemsUnmerged':
      return event.data.participants.map((p) => p.personId);
    case 'ItemUnmerged':
      return [
        ...event.data.plusOnes,
        ...(event.data.insidePlusOnes ?? []).flatMap((given) => given.plusOnes),
      ];
    case 'ItemEdited':
    case 'ItemStatusChanged':
    case 'ItemTagged':
    case 'ItemMergedInto':
    case 'PeopleNotified':
      return [];
    default: {
      const _exhaustive: never = event;
      return [];
    }
  }
}
