/**
 * A person's display name as it was at a point of the log: their stream folded by the people
 * projector (the same rules get_item's names follow) up to, not including, that position.
 * Webhook messages and list_events name a person actor this way, so a message says who acted
 * under the name they had then — as item history and the audit trail do — and a message id keeps
 * one body however late it is built (README: deduplicate on `webhook-id`).
 *
 * Each person's events are kept with the log's head when they were read: they are complete for
 * every position up to that head (an event before a position is appended before it), so a
 * worker walking forwards reads a person's stream again only once it passes that head.
 */
import { personStreamId } from '../../../commands/person/index.js';
import { peopleOf, peopleProjector } from '../../../projections/people/projector.js';
import { projectInMemory } from '../../read/project-in-memory.js';
import type { EventStore, RecordedEvent } from '../../eventstore/types.js';

const CACHED_PEOPLE = 1_000;

export function personNamesAt(eventStore: Pick<EventStore, 'readStream' | 'headPosition'>) {
  const people = peopleProjector();
  const logs = new Map<string, { events: RecordedEvent[]; readAt: bigint }>();

  async function logOf(personId: string, position: bigint) {
    const known = logs.get(personId);
    if (known && known.readAt >= position) return known.events;
    const readAt = await eventStore.headPosition();
    const events = await eventStore.readStream(personStreamId(personId));
    logs.delete(personId);
    logs.set(personId, { events, readAt });
    if (logs.size > CACHED_PEOPLE) logs.delete(logs.keys().next().value as string);
    return events;
  }

  /** the name before `position`; null when the person had none, undefined when they did not exist */
  return async (personId: string, position: bigint): Promise<string | null | undefined> => {
    const before = (await logOf(personId, position)).filter((e) => e.position < position);
    const store = await projectInMemory(people, before);
    return (await peopleOf(store).findOne({ _id: personId }))?.displayName;
  };
}
