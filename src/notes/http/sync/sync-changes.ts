/**
 * GET /v1/sync — the change feed for devices (beyond the spec): creates, updates, trashes and
 * restores of the caller's notes after a cursor, oldest first, each with the note as it is now.
 *
 * "Resync required" is a 200 with `resyncRequired: true`, a reason and a fresh cursor, not an
 * error status: the device must re-list its notes and then continue from that cursor, and the
 * answer has to carry the cursor. `changes` is absent in that answer, so a client that ignores
 * the flag fails loudly instead of taking "no changes" for an answer.
 */
import { z } from 'zod';
import { syncLimits } from '../../../../projections/sync/queries.js';
import { limitParam } from '../../../http/registry.js';
import { iso } from '../present.js';
import { SyncPage } from '../schemas.js';
import { defineNotesOp, type NotesHttpDeps, type NotesOperation } from '../types.js';

const RESYNC_MESSAGES = {
  expired:
    'resync required: the cursor is older than the oldest change still kept; list all notes again, then continue from the returned cursor',
  unknown:
    'resync required: this cursor was not issued by this feed for you; list all notes again, then continue from the returned cursor',
} as const;

/** The feed's own cursor inside a signed one, bound to its user (src/http/pagination.ts). */
const SignedCursor = z.object({ s: z.string().min(1) });

export function syncChangesOperation(deps: NotesHttpDeps): NotesOperation {
  const { queries, presenter, cursors } = deps;
  const scope = (userId: string) => ({ scope: `sync:${userId}`, field: 'cursor' });
  const sign = (userId: string, cursor: string) => cursors.encode({ s: cursor }, scope(userId));
  /** undefined: from the beginning; null: edited, forged, or another user's (resync) */
  const inner = (userId: string, cursor: string | undefined) => {
    if (cursor === undefined) return undefined;
    try {
      return cursors.decodeAs(cursor, SignedCursor, scope(userId)).s;
    } catch {
      return null;
    }
  };

  return defineNotesOp({
    id: 'sync_changes',
    method: 'get',
    path: '/v1/sync',
    summary: 'Changes of your notes after a cursor, in order',
    tags: ['Sync'],
    query: z.object({
      cursor: z
        .string()
        .min(1)
        .max(200)
        .optional()
        .meta({ description: 'cursor of the previous answer; omit to start from the beginning' }),
      limit: limitParam({ ...syncLimits }),
    }),
    response: SyncPage,
    errors: [400, 401, 403],
    auth: 'bearer',
    // the devices' change feed, not a notes or tags tool: not on the hosted MCP server
    meta: { hostedMcp: false },
    extraDescription:
      'Keep calling with the returned cursor while hasMore is true. A change is one of a note\'s own: renaming, recolouring, moving or deleting a tag, or renaming a device, changes what its notes show (their tags\' and device\'s names) but adds no change to this feed — read list_tags and list_devices for those. The newest 10,000 changes per user are kept; an older cursor, or one this feed did not issue to you, answers 200 with resyncRequired: true, a reason ("expired" or "unknown") and a fresh cursor to continue from after listing all notes again.',
    async handler(ctx) {
      const { userId } = ctx.principal;
      const result = await queries.syncChanges(userId, inner(userId, ctx.query.cursor), {
        limit: ctx.query.limit,
      });
      if (result.status === 'resync-required') {
        return {
          body: {
            resyncRequired: true as const,
            reason: result.reason,
            error: RESYNC_MESSAGES[result.reason],
            cursor: sign(userId, result.cursor),
          },
        };
      }
      const ids = [...new Set(result.changes.map((c) => c.noteId))];
      const notes = await queries.getNotes(userId, ids);
      const presented = await presenter.notes(userId, notes);
      const byId = new Map(presented.map((n) => [n.id, n]));
      return {
        body: {
          resyncRequired: false as const,
          changes: result.changes.map((c) => ({
            seq: c.seq,
            noteId: c.noteId,
            change: c.change,
            revision: c.revision,
            at: iso(c.at),
            note: byId.get(c.noteId) ?? null,
          })),
          cursor: sign(userId, result.cursor),
          hasMore: result.hasMore,
        },
      };
    },
  });
}
