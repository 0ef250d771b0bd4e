/** search_notes: the caller's active notes by meaning (src/notes/search answers the query). */
import { z } from 'zod';
import { limitParam, searchQueryParam } from '../../../http/registry.js';
import { NoteSearchResults } from '../schemas.js';
import { defineNotesOp, type NotesHttpDeps, type NotesOperation } from '../types.js';

export const searchLimits = { min: 1, max: 20, default: 10 } as const;
export const searchQueryMax = 500;

export function searchNotesOperation(deps: NotesHttpDeps): NotesOperation {
  const { queries, presenter } = deps;

  return defineNotesOp({
    id: 'search_notes',
    throttled: 'searches',
    method: 'get',
    path: '/v1/notes/search',
    summary: 'Search your active notes by meaning and by their words',
    tags: ['Notes'],
    query: z.object({
      q: searchQueryParam(searchQueryMax).meta({
        description: `what you are looking for, 1 to ${searchQueryMax} characters`,
      }),
      limit: limitParam({ ...searchLimits }),
    }),
    response: NoteSearchResults,
    errors: [400, 401, 403],
    auth: 'bearer',
    extraDescription:
      'Hybrid search over title and content: by meaning and by words (BM25 with English stemming, accent folding, a typo tolerated in longer words, the last word matched as a prefix), best first; `score` in [0, 1]. Weak matches are dropped, so a query about nothing in your notes returns an empty list. Trashed notes are never returned. A new or edited note is found by its words in the very next request after the write answered, and by meaning once it is embedded in the background (about a second).',
    async handler(ctx) {
      const { userId } = ctx.principal;
      const hits = await deps.search.search(userId, ctx.query.q, ctx.query.limit);
      const notes = await queries.getNotes(
        userId,
        hits.map((h) => h.noteId),
      );
      const active = new Map(notes.filter((n) => n.deletedAt === null).map((n) => [n.id, n]));
      const kept = hits.filter((h) => active.has(h.noteId));
      const presented = await presenter.notes(
        userId,
        kept.map((h) => active.get(h.noteId)!),
      );
      return {
        body: {
          results: kept.map((hit, i) => ({
            note: presented[i]!,
            score: Math.round(hit.score * 1e4) / 1e4,
          })),
        },
      };
    },
  });
}
