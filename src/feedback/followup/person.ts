/**
 * get_person: the person summary, the items they are on, and `awaitingReply` — computed here on
 * every request from the items' last speakers (rules.ts), never stored.
 */
import {
  getPerson,
  type PersonItem,
  type PersonSummary,
} from '../../../projections/people/queries.js';
import type { ReadStore } from '../../readstore/types.js';
import { awaitingReply } from './rules.js';

export interface PersonRecord extends PersonSummary {
  awaitingReply: boolean;
  items: PersonItem[];
  openItemCount: number;
  productKeys: string[];
}

export async function getPersonRecord(
  store: ReadStore,
  query: { workspaceId: string; personId: string },
): Promise<PersonRecord | null> {
  const found = await getPerson(store, query);
  if (!found) return null;
  return {
    ...found.person,
    awaitingReply: awaitingReply(found.threads, query.personId),
    items: found.items,
    openItemCount: found.openItemCount,
    productKeys: found.productKeys,
  };
}
