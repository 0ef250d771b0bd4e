/**
 * GET /v1/sync — the change feed for devices (beyond the spec; spec 001: "changes reach the
 * user's devices by sync"): creates, updates, trashes and restores of the caller's notes, and
 * the changes of their tags and devices (a rename above all, which a device showing names by id
 * must learn of), after a cursor, oldest first, each with its note, tag or device as it is now.
 *
 * "Resync required" is a 200 with `resyncRequired: true`, a reason and a fresh cursor, not an
 * error status: the device must re-list its notes and then continue from that cursor, and the
 * answer has to carry the cursor. `changes` is absent in that answer, so a client that ignores
 * the flag fails loudly instead of taking "no changes" for an answer.
 */
import { z } from 'zod';
import { syncLimits } from '../../../../projections/sync/queries.js';
import { limitParam } from '../../../http/registry.js';
import type { SyncChangeView } from '../../../../projections/sync/document.js';
import { iso, presentDevice, presentTag } from '../present.js';
import { type SyncChange, SyncPage } from '../schemas.js';
import { defineNotesOp, type NotesHttpDeps, type NotesOperation } from '../types.js';

const RESYNC_MESSAGES = {
  expired:
    'resync required: the cursor is older than the oldest change still kept; list all notes, tags and devices again, then continue from the returned cursor',
  unknown:
    'resync required: this cursor was not issued by this feed for you; list all notes, tags and devices again, then continue from the returned cursor',
} as const;

/** The feed's own cursor inside a signed one, bound to its user (src/http/pagination.ts). */
const SignedCursor = z.object({ s: z.string().min(1) });

const subjectId = (c: SyncChangeView) =>
  c.kind === 'note' ? c.noteId : c.kind === 'tag' ? c.tagId : c.deviceId;

export function syncChangesOperation(deps: NotesHttpDeps): NotesOperation {
  const { queries, presenter, cursors } = deps;
  /** each change with its note, tag or device as it is now: one read of each kind per page */
  async function present(userId: string, changes: readonly SyncChangeView[]) {
    const ids = <K extends SyncChangeView['kind']>(kind: K) => [
      ...new Set(changes.flatMap((c) => (c.kind === kind ? [subjectId(c)] : []))),
    ];
    const [notes, tags, devices] = await Promise.all([
      queries.getNotes(userId, ids('note')).then((n) => presenter.notes(userId, n)),
      queries.getTags(userId, ids('tag')),
      queries.getDevices(userId, ids('device')),
    ]);
    const noteOf = new Map(notes.map((n) => [n.id, n]));
    const tagOf = new Map(tags.map((t) => [t.id, presentTag(t)]));
    const deviceOf = new Map(devices.map((d) => [d.id, presentDevice(d)]));
    return changes.map((c) => {
      const common = { seq: c.seq, change: c.change, revision: c.revision, at: iso(c.at) };
      switch (c.kind) {
        case 'note':
          return { ...common, kind: c.kind, noteId: c.noteId, note: noteOf.get(c.noteId) ?? null };
        case 'tag':
          return { ...common, kind: c.kind, tagId: c.tagId, tag: tagOf.get(c.tagId) ?? null };
        default: {
          const device = deviceOf.get(c.deviceId) ?? null;
          return { ...common, kind: c.kind, deviceId: c.deviceId, device };
        }
      }
    }) as z.input<typeof SyncChange>[];
  }

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
    summary: 'Changes of your notes, tags and devices after a cursor, in order',
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
      "Keep calling with the returned cursor while hasMore is true. Each change names its kind: a note's (created, updated, trashed, restored; its tags added or removed are an update), a tag's (created, updated — renamed, recoloured or moved, also by the delete of its parent, which moves it up to that tag's parent at the revision it had —, deleted) or a device's (created, updated — renamed, for example), with the note, tag or device as it is now. A renamed tag or device changes what its notes show without a change of each note: a device that shows notes' tags and device names by their ids takes the new names from the tag and device changes. The newest 10,000 changes per user are kept; an older cursor, or one this feed did not issue to you, answers 200 with resyncRequired: true, a reason (\"expired\" or \"unknown\") and a fresh cursor to continue from after listing all notes, tags and devices again.",
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
      return {
        body: {
          resyncRequired: false as const,
          changes: await present(userId, result.changes),
          cursor: sign(userId, result.cursor),
          hasMore: result.hasMore,
        },
      };
    },
  });
}
