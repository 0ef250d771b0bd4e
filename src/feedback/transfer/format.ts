/**
 * The workspace export file: JSON lines.
 *
 *   line 1      {"format":"feedback-workspace-export","version":2,"workspace":{...},"source":{...}}
 *   one per event, in log order:
 *               {"position":"123","streamId":"…","revision":0,"id":"…","type":"…",
 *                "data":"<the stored JSON text>","metadata":"<the stored JSON text>",
 *                "logHash":"<the source log's chain hash of this event, or null>","hash":"…"}
 *   last line   {"end":true,"events":N,"hash":"<hash of the last event line>"}
 *
 * `data` and `metadata` are the stored bytes as text, so an import writes exactly what was
 * stored (old event shapes included; they are upcast when read, never rewritten).
 *
 * The file is a hash chain of its own, like the log (src/eventstore/embedded/chain.ts): each
 * event line's `hash` is SHA-256 over the previous line's hash, the event's position and its
 * bytes; the first chains to the SHA-256 of the header line. Editing, dropping, reordering or
 * adding a line, or cutting the file short (the last line holds the count and the final hash),
 * breaks it, and import refuses the file. `logHash` ties each event to the source log's own
 * chain: an auditor holding the source can check any line against `verify` there.
 *
 * Versions (select.ts says which streams): 1 held the workspace, its products, items, changelog,
 * people and users; 2 adds its webhooks (their roster) and integrations. Lines have the same
 * shape in both and this instance imports either; an instance that reads only version 1 refuses
 * a version-2 file at its header instead of half-way, at a stream it does not know.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { chainHash } from '../../eventstore/embedded/chain.js';

export const EXPORT_FORMAT = 'feedback-workspace-export';
export const EXPORT_VERSION = 2;
/** the versions this instance imports */
export const IMPORTED_VERSIONS = [1, 2] as const;

export const ExportHeader = z
  .object({
    format: z.literal(EXPORT_FORMAT),
    version: z.literal(IMPORTED_VERSIONS),
    workspace: z
      .object({ id: z.string().min(1), slug: z.string().min(1), name: z.string() })
      .strict(),
    exportedAt: z.string(),
    source: z
      .object({
        adapter: z.enum(['embedded', 'kurrentdb']),
        head: z.string().regex(/^\d+$/),
        headHash: z.string().nullable(),
      })
      .strict(),
  })
  .strict();
export type ExportHeader = z.infer<typeof ExportHeader>;

export const ExportEvent = z
  .object({
    position: z.string().regex(/^[1-9]\d*$/),
    streamId: z.string().min(1),
    revision: z.number().int().min(0),
    id: z.string().min(1),
    type: z.string().min(1),
    data: z.string(),
    metadata: z.string(),
    logHash: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .nullable(),
    hash: z.string().regex(/^[0-9a-f]{64}$/),
  })
  .strict();
export type ExportEvent = z.infer<typeof ExportEvent>;

export const ExportEnd = z
  .object({ end: z.literal(true), events: z.number().int().min(0), hash: z.string() })
  .strict();

/** The hash the first event line chains to. */
export const headerHash = (headerLine: string): string =>
  createHash('sha256').update(headerLine).digest('hex');

export function lineHash(previous: string, event: Omit<ExportEvent, 'hash' | 'logHash'>): string {
  return chainHash(`${previous}@${event.position}`, {
    streamId: event.streamId,
    revision: event.revision,
    eventId: event.id,
    type: event.type,
    data: event.data,
    metadata: event.metadata,
  });
}
