/**
 * Input shapes the actions accept, as zod schemas so the HTTP layer can describe the same
 * rules in OpenAPI. Actions parse their input with these (an action owns its validation), so
 * every caller — HTTP, MCP, CLI, tests — gets the same answers for bad input.
 */
import { z } from 'zod';
import { deviceLimits } from '../../../commands/device/index.js';
import { noteLimits } from '../../../commands/note/index.js';
import { InvalidArgument } from '../../../commands/shared/errors.js';
import { maxTagColor, tagLimits } from '../../../commands/tag/index.js';

const tagName = z.string().trim().min(1, 'tag names must not be empty').max(tagLimits.nameMax);
const deviceName = z.string().trim().min(1).max(deviceLimits.nameMax);

export const noteMetadataInput = z
  .object({
    latitude: z
      .number()
      .min(-90, 'latitude must be between -90 and 90')
      .max(90, 'latitude must be between -90 and 90')
      .optional(),
    longitude: z
      .number()
      .min(-180, 'longitude must be between -180 and 180')
      .max(180, 'longitude must be between -180 and 180')
      .optional(),
    /** device name; a device of that name is registered when the user has none */
    device: deviceName.optional(),
  })
  .refine((m) => (m.latitude === undefined) === (m.longitude === undefined), {
    message: 'latitude and longitude must be given together',
  });
export type NoteMetadataInput = z.infer<typeof noteMetadataInput>;

/** POST /v1/notes body; also the PUT body (a PUT replaces title, content and metadata). */
export const noteInput = z.object({
  title: z.string().max(noteLimits.titleMax).optional(),
  content: z.string().min(1, 'content is required').max(noteLimits.contentMax),
  /** tag names; unknown names are created as tags */
  tags: z.array(tagName).max(noteLimits.tagsMax).optional(),
  metadata: noteMetadataInput.optional(),
});
export type NoteInput = z.infer<typeof noteInput>;

export const tagColorInput = z.number().int().min(0).max(maxTagColor);

export const createTagInput = z.object({
  name: tagName,
  color: tagColorInput.nullable().optional(),
  parentId: z.string().min(1).nullable().optional(),
});
export type CreateTagInput = z.infer<typeof createTagInput>;

/** Absent fields keep their value; null clears the colour / moves the tag to the top level. */
export const updateTagInput = createTagInput.partial();
export type UpdateTagInput = z.infer<typeof updateTagInput>;

export const registerDeviceInput = z.object({
  name: deviceName,
  platform: z.string().trim().min(1).max(deviceLimits.platformMax),
});
export type RegisterDeviceInput = z.infer<typeof registerDeviceInput>;

export const updateDeviceInput = registerDeviceInput.partial();
export type UpdateDeviceInput = z.infer<typeof updateDeviceInput>;

/** Parse or throw InvalidArgument naming the first offending field. */
export function parseInput<T>(schema: z.ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue?.path.join('.') ?? '';
  const message = issue?.message ?? 'invalid input';
  throw new InvalidArgument(path ? `${path}: ${message}` : message);
}
