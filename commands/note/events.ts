/**
 * Events of the note aggregate (stream `note-<userId>.<noteId>`). Event data never carries a
 * timestamp: time is the event's `metadata.occurredAt`, so a retried command (same
 * Idempotency-Key, same command) hashes the same and is answered from the first attempt.
 */
import { z } from 'zod';

export const noteMetadataSchema = z.object({
  latitude: z.number().min(-90).max(90).nullable(),
  longitude: z.number().min(-180).max(180).nullable(),
  deviceId: z.string().nullable(),
  /** "City, CC" from the gazetteer when coordinates were given and a city is near */
  placeName: z.string().nullable(),
});
export type NoteMetadata = z.infer<typeof noteMetadataSchema>;

/** One version of a note: what a PUT replaces as a whole and what history archives. */
export const noteVersionSchema = z.object({
  title: z.string(),
  content: z.string(),
  tagIds: z.array(z.string()),
  metadata: noteMetadataSchema,
});
export type NoteVersion = z.infer<typeof noteVersionSchema>;

export const noteEventSchemas = {
  NoteCreated: noteVersionSchema.extend({ noteId: z.string(), userId: z.string() }),
  /** carries the full new version; the replaced one is what the stream held before */
  NoteUpdated: noteVersionSchema,
  TagAddedToNote: z.object({ tagId: z.string() }),
  TagRemovedFromNote: z.object({ tagId: z.string() }),
  /** deletedAt is the event's occurredAt */
  NoteTrashed: z.object({}),
  NoteRestored: z.object({}),
} as const;

type Schemas = typeof noteEventSchemas;
export type NoteEventType = keyof Schemas;
export type NoteEvent = {
  [K in NoteEventType]: { type: K; data: z.infer<Schemas[K]> };
}[NoteEventType];
export type NoteEventOf<K extends NoteEventType> = Extract<NoteEvent, { type: K }>;

export const noteEventTypes = Object.keys(noteEventSchemas) as NoteEventType[];

/** Validate an event read from the store (e.g. in a projector) against its schema. */
export function parseNoteEvent(event: { type: string; data: unknown }): NoteEvent | null {
  if (!(event.type in noteEventSchemas)) return null;
  const schema = noteEventSchemas[event.type as NoteEventType];
  return { type: event.type, data: schema.parse(event.data) } as NoteEvent;
}
