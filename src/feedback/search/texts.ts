/**
 * What the feedback board embeds. An item is its title and body as one text, the format the
 * relevance fixture measures (test/fixtures/search/feedback.ts). A person is their name and
 * e-mail; the topics they raised are not copied into their text but reached through the items
 * they are on (search.ts), so editing a title never re-embeds its thousand +1s.
 */
import type { ItemDoc } from '../../../projections/items/document.js';
import type { PersonDoc } from '../../../projections/people/projector.js';

/** Long bodies add little meaning to a sentence encoder and cost time: the opening is kept. */
const BODY_CHARS = 2000;

export function itemText(doc: Pick<ItemDoc, 'title' | 'body'>): string {
  return `${doc.title}. ${doc.body.slice(0, BODY_CHARS)}`;
}

/** null when there is nothing to embed (an anonymous visitor without a name). */
export function personText(doc: Pick<PersonDoc, 'displayName' | 'email'>): string | null {
  const parts = [doc.displayName?.trim(), doc.email?.trim()].filter(Boolean);
  if (parts.length === 0) return null;
  // the e-mail's local part as words too: "ada.lovelace@x.io" also reads "ada lovelace"
  const local = doc.email
    ?.split('@')[0]
    ?.replace(/[._+-]+/g, ' ')
    .trim();
  if (local && !parts.includes(local)) parts.push(local);
  return parts.join(' · ');
}

/** Vector documents are scoped by workspace; an item id carries its product (`<ws>.<KEY>-<n>`). */
export const itemVectorPrefix = (workspaceId: string, productKey: string): string =>
  `${workspaceId}.${productKey}-`;
