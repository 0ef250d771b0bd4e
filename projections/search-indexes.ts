/**
 * The search indexes are projections of the log too (DESIGN.md "Search": "The vector index is a
 * projection"), but their projectors are built by each service's search (src/feedback/search,
 * src/notes/search), which embeds what they stage. Their names and collections are declared here
 * so that what only knows the plain read models — `rebuild`, the advice on unreadable documents —
 * knows these too.
 */

/** A vector index named `name` keeps its documents in this collection (src/search/vector-index.ts). */
export const searchCollection = (index: string) => `search_${index}`;

export const FEEDBACK_ITEM_VECTORS = 'feedback_items';
export const FEEDBACK_PEOPLE_VECTORS = 'feedback_people';
export const NOTES_VECTORS = 'notes';

export const FEEDBACK_SEARCH = {
  name: 'feedback-search',
  collections: [FEEDBACK_ITEM_VECTORS, FEEDBACK_PEOPLE_VECTORS].map(searchCollection),
} as const;

export const NOTES_SEARCH = {
  name: 'notes-search',
  collections: [searchCollection(NOTES_VECTORS)],
} as const;

/** Both services' search projections, by name and collections. */
export const searchProjections = (): { name: string; collections: readonly string[] }[] => [
  FEEDBACK_SEARCH,
  NOTES_SEARCH,
];
