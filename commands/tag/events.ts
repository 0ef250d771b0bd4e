/**
 * Events of the notes service's tag aggregate (stream `notetag-<userId>.<tagId>`). Named
 * `NoteTag…` so they never collide with the feedback board's own tags. Times are the events'
 * `metadata.occurredAt`.
 */
import { z } from 'zod';

export const tagFieldsSchema = z.object({
  name: z.string(),
  /** index into tagPalette (palette.ts), null for no colour */
  color: z.number().int().nullable(),
  parentId: z.string().nullable(),
});
export type TagFields = z.infer<typeof tagFieldsSchema>;

export const tagEventSchemas = {
  NoteTagCreated: tagFieldsSchema.extend({ tagId: z.string(), userId: z.string() }),
  /** carries all fields after the change (rename, recolour, move) */
  NoteTagUpdated: tagFieldsSchema,
  /** soft delete; notes keep their associations */
  NoteTagDeleted: z.object({}),
} as const;

type Schemas = typeof tagEventSchemas;
export type TagEventType = keyof Schemas;
export type TagEvent = {
  [K in TagEventType]: { type: K; data: z.infer<Schemas[K]> };
}[TagEventType];

export const tagEventTypes = Object.keys(tagEventSchemas) as TagEventType[];

export function parseTagEvent(event: { type: string; data: unknown }): TagEvent | null {
  if (!(event.type in tagEventSchemas)) return null;
  const schema = tagEventSchemas[event.type as TagEventType];
  return { type: event.type, data: schema.parse(event.data) } as TagEvent;
}
