import { type ItemEvent, parseItemStreamId } from '../../commands/item/index.js';
import { type ProductEvent, productKeyOf, type Visibility } from '../../commands/product/index.js';
import type { Collection, Doc, ReadStore } from '../../src/readstore/types.js';
import { guardedUpdate } from '../shared/guard.js';
import type { Projector } from '../shared/projector.js';
import { asRecorded } from '../shared/recorded.js';

/** Spec "Product": exactly id, name, visibility, itemCount, nextItemNumber, createdAt. */
export interface ProductDoc extends Doc {
  id: string;
  name: string;
  visibility: Visibility;
  /** items that can be listed: captured and not merged into another item */
  itemCount: number;
  nextItemNumber: number;
  createdAt: number;
  _ws: string;
}

export const PRODUCTS = 'products';
export const productsOf = (s: ReadStore): Collection<ProductDoc> => s.collection(PRODUCTS);
export const productDocId = (workspaceId: string, key: string): string => `${workspaceId}.${key}`;

const PRODUCT_EVENTS: ProductEvent['type'][] = [
  'ProductCreated',
  'ProductRenamed',
  'ProductVisibilityChanged',
  'ItemNumberAllocated',
];
const ITEM_EVENTS: ItemEvent['type'][] = ['ItemCaptured', 'ItemMergedInto', 'ItemUnmerged'];

export function productsProjector(): Projector {
  return {
    name: 'products',
    collections: [PRODUCTS],
    filter: { eventTypes: [...PRODUCT_EVENTS, ...ITEM_EVENTS] },
    async setup(store) {
      await productsOf(store).createIndex({ keys: { _ws: 1, id: 1 }, name: 'products_ws' });
    },
    async apply(raw, store) {
      const products = productsOf(store);
      if (raw.streamId.startsWith('item-')) {
        const event = asRecorded<ItemEvent>(raw);
        const where = parseItemStreamId(event.streamId);
        const productKey = where && productKeyOf(where.itemKey);
        if (!where || !productKey) return;
        const id = productDocId(where.workspaceId, productKey);
        if (event.type === 'ItemCaptured') {
          await guardedUpdate(products, id, event.position, { $inc: { itemCount: 1 } });
        } else if (event.type === 'ItemMergedInto') {
          // a merged item leaves every listing, so it leaves the count too (see commands/item/decide.ts)
          await guardedUpdate(products, id, event.position, { $inc: { itemCount: -1 } });
        } else if (event.type === 'ItemUnmerged') {
          await guardedUpdate(products, id, event.position, { $inc: { itemCount: 1 } });
        }
        return;
      }
      const event = asRecorded<ProductEvent>(raw);
      const [workspaceId, key] = event.streamId.slice('product-'.length).split('.') as [
        string,
        string,
      ];
      const id = productDocId(workspaceId, key);
      switch (event.type) {
        case 'ProductCreated': {
          const { name, visibility } = event.data;
          const doc = { id: key, name, visibility, itemCount: 0, nextItemNumber: 1 };
          const set = { ...doc, createdAt: event.metadata.occurredAt, _ws: workspaceId };
          await guardedUpdate(products, id, event.position, { $set: set }, { upsert: true });
          return;
        }
        case 'ProductRenamed':
          await guardedUpdate(products, id, event.position, { $set: { name: event.data.name } });
          return;
        case 'ProductVisibilityChanged': {
          const set = { visibility: event.data.visibility };
          await guardedUpdate(products, id, event.position, { $set: set });
          return;
        }
        case 'ItemNumberAllocated': {
          const set = { nextItemNumber: event.data.number + 1 };
          await guardedUpdate(products, id, event.position, { $set: set });
          return;
        }
        default: {
          const _exhaustive: never = event;
        }
      }
    },
  };
}
