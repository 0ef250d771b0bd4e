/**
 * Keeps the feedback vector indexes in step with the log. The projector only STAGES texts (a
 * cheap read-store write, safe to run twice: an unchanged text is a no-op) and the indexer
 * embeds them in the background, so no write ever waits for a model.
 *
 * It reads the current item / person documents, so it must be listed AFTER the items and people
 * projectors (the engine applies projectors in list order for each event). Replaying an old
 * event therefore stages the current text, never an outdated one.
 */
import type { ItemEvent } from '../../../commands/item/index.js';
import type { PersonEvent } from '../../../commands/person/index.js';
import { itemsOf } from '../../../projections/items/document.js';
import { peopleOf } from '../../../projections/people/projector.js';
import {
  FEEDBACK_ITEM_VECTORS,
  FEEDBACK_PEOPLE_VECTORS,
  FEEDBACK_SEARCH,
} from '../../../projections/search-indexes.js';
import type { Projector } from '../../../projections/shared/projector.js';
import { asRecorded } from '../../../projections/shared/recorded.js';
import type { ReadStore } from '../../readstore/types.js';
import type { Indexer } from '../../search/indexer.js';
import type { VectorIndex } from '../../search/vector-index.js';
import { itemText, personText } from './texts.js';

export interface SearchTargets {
  items: { index: VectorIndex; indexer: Indexer };
  people: { index: VectorIndex; indexer: Indexer };
}

export const ITEM_VECTORS = FEEDBACK_ITEM_VECTORS;
export const PEOPLE_VECTORS = FEEDBACK_PEOPLE_VECTORS;

export function feedbackSearchProjector(
  targetsFor: (store: ReadStore) => SearchTargets,
): Projector {
  return {
    ...FEEDBACK_SEARCH,
    filter: {
      eventTypes: [
        'ItemCaptured',
        'ItemEdited',
        'ItemMergedInto',
        'ItemUnmerged',
        'PersonCreated',
        'PersonUpdated',
      ],
    },
    async setup(store) {
      // also runs after a rebuild dropped the collections: forget cached vectors
      const { items, people } = targetsFor(store);
      for (const { index } of [items, people]) {
        index.reset();
        await index.setup();
      }
    },
    async apply(raw, store) {
      const { items, people } = targetsFor(store);
      if (raw.streamId.startsWith('person-')) {
        const event = asRecorded<PersonEvent>(raw);
        const personId = event.streamId.slice('person-'.length);
        const person = await peopleOf(store).findOne({ _id: personId });
        const text = person && personText(person);
        if (person && text) await people.indexer.enqueue(personId, person._ws, text);
        else await people.indexer.remove(personId);
        return;
      }
      const event = asRecorded<ItemEvent>(raw);
      const id = event.streamId.slice('item-'.length);
      const doc = await itemsOf(store).findOne({ _id: id });
      // merged items leave every listing, search included; an unmerged one comes back
      if (!doc || doc._mergedInto !== null) await items.indexer.remove(id);
      else await items.indexer.enqueue(id, doc._ws, itemText(doc));
    },
  };
}
