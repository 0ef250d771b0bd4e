/**
 * Changes of one item, built from its timeline: for each revision the event, the item just
 * before and just after it (rebuilt by the projectors, timeline.ts), who did it, and a sentence.
 */
import type { ItemEvent } from '../../../commands/item/index.js';
import { findItem } from '../../../projections/items/queries.js';
import { peopleOf } from '../../../projections/people/projector.js';
import { asRecorded } from '../../../projections/shared/recorded.js';
import type { RecordedEvent } from '../../eventstore/types.js';
import type { ReadStore } from '../../readstore/types.js';
import { actorDescriber } from '../../../projections/people/actor.js';
import { actorWord, type Change, changeOf, diff, type ItemView, itemView } from './change.js';
import { itemSentence } from './item-sentences.js';
import type { ItemTimelines } from './timeline.js';

export interface ActivityDeps {
  readStore: ReadStore;
  timelines: ItemTimelines;
}

/** The Changes of the item's events at `revisions` (in the order given). */
export async function itemChanges(
  deps: ActivityDeps,
  workspaceId: string,
  itemKey: string,
  revisions: readonly number[],
  describe = actorDescriber(deps.readStore, workspaceId),
): Promise<Change[]> {
  const events = await deps.timelines.events(workspaceId, itemKey);
  const asked = revisions.filter((r) => r >= 0 && r < events.length);
  const views = new Map<number, ItemView | null>();
  // a person's name at a revision: null when they had none then, undefined when not there yet
  const names = new Map<number, Map<string, string | null | undefined>>();
  const wanted = new Set(asked.flatMap((r) => [r - 1, r]));
  await deps.timelines.replay(workspaceId, itemKey, wanted, async (revision, store) => {
    views.set(revision, itemView(await findItem(store, { workspaceId, itemKey })));
    const named = new Map<string, string | null | undefined>();
    const event = events[revision]!;
    // the actor too: a person who renamed themselves since acted under the name they had then
    const actor = event.metadata.actor === null ? [] : [event.metadata.actor];
    for (const personId of [...namedIn(event), ...actor]) {
      named.set(personId, (await peopleOf(store).findOne({ _id: personId }))?.displayName);
    }
    names.set(revision, named);
  });
  const changes: Change[] = [];
  for (const revision of asked) {
    const event = events[revision]!;
    // a copy: `describe` hands the same view to every event of this actor
    const actor = { ...(await describe(event.metadata)) };
    // also when they had no name then: a name given later is not the one they acted under (the
    // sentence, as-of and webhook messages say none)
    const then =
      actor.kind === 'person' && actor.id ? names.get(revision)?.get(actor.id) : undefined;
    if (then !== undefined) actor.name = then;
    // so did a person an OAuth client acted for
    if (actor.actingFor?.kind === 'person') {
      const named = names.get(revision)?.get(actor.actingFor.id);
      if (named !== undefined) actor.actingFor = { ...actor.actingFor, name: named };
    }
    const before = views.get(revision - 1) ?? null;
    const summary = itemSentence(asRecorded<ItemEvent>(event), {
      who: actorWord(actor),
      ...(actor.actingFor ? { actingForId: actor.actingFor.id } : {}),
      ...(actor.kind === 'agent' && event.metadata.via ? { agentVia: event.metadata.via } : {}),
      itemKey,
      before,
      personName: (id) => names.get(revision)?.get(id) ?? null,
    });
    changes.push(
      changeOf(event, {
        itemKey,
        actor,
        summary,
        changes: diff(before, views.get(revision) ?? null),
      }),
    );
  }
  return changes;
}

/** People whose names a sentence about this event uses. */
function namedIn(raw: RecordedEvent): string[] {
  const event = asRecorded<ItemEvent>(raw);
  if (event.type === 'PlusOneAdded' || event.type === 'PlusOneWithdrawn') {
    return [event.data.personId];
  }
  if (event.type === 'ItemCaptured') return [event.data.author.personId];
  return [];
}
