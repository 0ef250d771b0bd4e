import type { ReadStore } from '../../src/readstore/types.js';
import { type ProductDoc, productDocId, productsOf } from './projector.js';

/** The spec's Product record: all fields, no others. */
export interface Product {
  id: string;
  name: string;
  visibility: 'private' | 'public';
  itemCount: number;
  nextItemNumber: number;
  createdAt: number;
}

export function toProduct(doc: ProductDoc): Product {
  const { id, name, visibility, itemCount, nextItemNumber, createdAt } = doc;
  return { id, name, visibility, itemCount, nextItemNumber, createdAt };
}

/** list_products: everything in one response, ordered by key. */
export async function listProducts(store: ReadStore, workspaceId: string): Promise<Product[]> {
  const docs = await productsOf(store).find({ _ws: workspaceId }, { sort: { id: 1 } });
  return docs.map(toProduct);
}

export async function getProduct(
  store: ReadStore,
  query: { workspaceId: string; key: string },
): Promise<Product | null> {
  const doc = await productsOf(store).findOne({ _id: productDocId(query.workspaceId, query.key) });
  return doc ? toProduct(doc) : null;
}
