/**
 * Wire shapes of the notes API (requests and responses), declared once at module level because
 * zod's `.meta({ id })` names are process-wide; the ids carry a `Note`/`Notes` prefix so they never
 * meet the feedback service's. Times are ISO 8601 strings (UTC). Bodies are strict: an unknown
 * field is a 400, so a misspelt field never silently does nothing.
 */
import { z } from 'zod';
import { deviceLimits } from '../../../commands/device/index.js';
import { noteLimits } from '../../../commands/note/index.js';
import { maxTagColor, tagLimits, tagPalette } from '../../../commands/tag/index.js';

const time = z.iso.datetime();
const id = z.string().meta({ description: 'opaque id' });

export const paletteDescription = `Index into the fixed tag palette (null = no colour): ${tagPalette
  .map((c) => `${c.index} ${c.name} ${c.hex}`)
  .join(', ')}. New colours are only ever appended.`;

const tagColor = z.number().int().min(0).max(maxTagColor).meta({ description: paletteDescription });

// ---- responses ----

export const NoteTagRef = z
  .object({ id, name: z.string(), color: tagColor.nullable(), parentId: id.nullable() })
  .meta({ id: 'NoteTag', description: "one of the note's tags (a soft-deleted tag stays listed)" });

export const NoteMetadataOut = z
  .object({
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
    device: z.string().nullable().meta({ description: 'device name' }),
    placeName: z.string().nullable().meta({
      description:
        '"City, CC" of the nearest town or city (GeoNames data), from the coordinates; null without coordinates or when no town lies within 100 km (open sea, polar ice, deserts)',
    }),
  })
  .meta({ id: 'NoteMetadata' });

export const Note = z
  .object({
    id,
    title: z.string(),
    content: z.string(),
    tags: z.array(NoteTagRef),
    metadata: NoteMetadataOut,
    createdAt: time,
    updatedAt: time,
    deletedAt: time.nullable().meta({ description: 'set while the note is in the trash' }),
    revision: z.number().int().meta({
      description:
        'the first part of the note\'s ETag ("<revision>.<digest>"); If-Match may name it alone ("<revision>")',
    }),
  })
  .meta({ id: 'Note' });

export const NoteList = z
  .object({
    notes: z.array(Note),
    nextPageToken: z
      .string()
      .nullable()
      .meta({ description: 'pass back as pageToken for the next page; null at the end' }),
  })
  .meta({ id: 'NoteList' });

export const NoteSearchResults = z
  .object({
    results: z.array(
      z.object({
        note: Note,
        score: z.number().min(0).max(1).meta({ description: 'similarity, higher is closer' }),
      }),
    ),
  })
  .meta({ id: 'NoteSearchResults' });

/** The app (OAuth client) a change of a note came through, as its event recorded it. */
export const NoteApp = z
  .object({
    clientId: z
      .string()
      .meta({ description: 'the OAuth client_id the access token was issued to' }),
    clientName: z.string().nullable().meta({
      description:
        'the client_name the app registered (its own claim, which another app may repeat: clientId tells them apart); null when it registered none or is no longer registered',
    }),
  })
  .meta({ id: 'NoteApp' });

export const NoteVersion = z
  .object({
    title: z.string(),
    content: z.string(),
    tags: z.array(NoteTagRef),
    metadata: NoteMetadataOut,
    archivedAt: time.meta({ description: 'when a PUT replaced this version' }),
    revision: z.number().int().meta({ description: 'the revision this version had' }),
    madeBy: NoteApp.nullable().meta({
      description:
        'the app whose change (the create, a PUT or a tag change) last made this version what it is; null when it came through no app',
    }),
    replacedBy: NoteApp.nullable().meta({
      description: 'the app whose PUT replaced this version (at archivedAt); null when none',
    }),
  })
  .meta({ id: 'NoteVersion' });

export const NoteHistory = z
  .object({
    versions: z.array(NoteVersion).meta({ description: 'newest first' }),
    nextPageToken: z
      .string()
      .nullable()
      .meta({ description: 'pass as pageToken for the older versions; null on the last page' }),
  })
  .meta({ id: 'NoteHistory' });

export const Tag = z
  .object({
    id,
    name: z.string(),
    color: tagColor.nullable(),
    parentId: id.nullable(),
    createdAt: time,
    updatedAt: time,
    deletedAt: time.nullable(),
    revision: z.number().int(),
  })
  .meta({ id: 'NotesTag' });

export const TagList = z.object({ tags: z.array(Tag) }).meta({ id: 'NotesTagList' });

export const Device = z
  .object({
    id,
    name: z.string(),
    platform: z.string(),
    createdAt: time,
    updatedAt: time,
    revision: z.number().int(),
  })
  .meta({ id: 'NotesDevice' });

export const DeviceList = z.object({ devices: z.array(Device) }).meta({ id: 'NotesDeviceList' });

const seq = z.number().int().meta({ description: 'per-user change number, 1, 2, 3, …' });
const changeRevision = (of: string) =>
  z
    .number()
    .int()
    .meta({ description: `the ${of}'s revision after this change` });
const asNow = (of: string) => ({ description: `the ${of} as it is now (not as of this change)` });

export const SyncChange = z
  .discriminatedUnion('kind', [
    z.object({
      seq,
      kind: z.literal('note'),
      noteId: id,
      change: z.enum(['created', 'updated', 'trashed', 'restored']),
      revision: changeRevision('note'),
      at: time,
      note: Note.nullable().meta(asNow('note')),
    }),
    z.object({
      seq,
      kind: z.literal('tag'),
      tagId: id,
      change: z.enum(['created', 'updated', 'deleted']).meta({
        description: 'updated: renamed, recoloured or moved (see the tag for its fields now)',
      }),
      revision: changeRevision('tag'),
      at: time,
      tag: Tag.nullable().meta(asNow('tag')),
    }),
    z.object({
      seq,
      kind: z.literal('device'),
      deviceId: id,
      change: z.enum(['created', 'updated']).meta({ description: 'updated: renamed, for example' }),
      revision: changeRevision('device'),
      at: time,
      device: Device.nullable().meta(asNow('device')),
    }),
  ])
  .meta({ id: 'NoteSyncChange' });

export const SyncPage = z
  .discriminatedUnion('resyncRequired', [
    z.object({
      resyncRequired: z.literal(false),
      changes: z.array(SyncChange).meta({ description: 'oldest first' }),
      cursor: z.string().meta({ description: 'pass back as cursor to continue' }),
      hasMore: z.boolean(),
    }),
    z.object({
      resyncRequired: z.literal(true),
      reason: z.enum(['expired', 'unknown']),
      error: z.string(),
      cursor: z
        .string()
        .meta({ description: 'list all notes again, then continue the feed from this cursor' }),
    }),
  ])
  .meta({ id: 'NoteSyncPage' });

// ---- requests ----

const optionalNull = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

export const NoteMetadataIn = z
  .object({
    latitude: optionalNull(z.number().min(-90).max(90)),
    longitude: optionalNull(z.number().min(-180).max(180)),
    device: optionalNull(
      z
        .string()
        .trim()
        .min(1)
        .max(deviceLimits.nameMax)
        .meta({ description: 'device name; registered (platform "unknown") when new' }),
    ),
  })
  .strict()
  .refine((m) => (m.latitude == null) === (m.longitude == null), {
    message: 'latitude and longitude must be given together',
  })
  .meta({
    id: 'NoteMetadataInput',
    description: 'capture context; placeName is derived from the coordinates and cannot be sent',
  });

export const NoteBody = z
  .object({
    title: z.string().max(noteLimits.titleMax).optional(),
    content: z.string().min(1).max(noteLimits.contentMax),
    tags: z
      .array(z.string().trim().min(1).max(tagLimits.nameMax))
      .max(noteLimits.tagsMax)
      .optional()
      .meta({ description: 'tag names; names without a tag are created as tags' }),
    metadata: NoteMetadataIn.optional(),
  })
  .strict()
  .meta({ id: 'NoteInput' });

export const TagCreateBody = z
  .object({
    name: z.string().trim().min(1).max(tagLimits.nameMax),
    color: optionalNull(tagColor),
    parentId: optionalNull(id.min(1)).meta({
      description: 'an active tag of yours; no cycles',
    }),
  })
  .strict()
  .meta({ id: 'NotesTagInput' });

export const TagUpdateBody = TagCreateBody.partial().strict().meta({
  id: 'NotesTagUpdate',
  description: 'absent fields keep their value; null clears color / moves to the top level',
});

export const DeviceCreateBody = z
  .object({
    name: z.string().trim().min(1).max(deviceLimits.nameMax),
    platform: z.string().trim().min(1).max(deviceLimits.platformMax),
  })
  .strict()
  .meta({ id: 'NotesDeviceInput' });

export const DeviceUpdateBody = DeviceCreateBody.partial()
  .strict()
  .meta({ id: 'NotesDeviceUpdate', description: 'absent fields keep their value' });

/**
 * Path parameters, each said as the id of what and where it comes from: a tool's argument is
 * all an assistant has to follow one tool's answer into another's call (add_note_tag takes a
 * note's `id` and a tag's, which "opaque id" twice did not tell apart).
 */
const noteId = z.string().meta({
  description: "the note's id, as list_notes, search_notes and create_note answer it",
});
const tagId = z.string().meta({
  description: "the tag's id, as list_tags and create_tag answer it (and a note's `tags`)",
});
const deviceId = z.string().meta({
  description: "the device's id, as list_devices and register_device answer it",
});
export const NoteIdParam = z.object({ id: noteId });
export const TagIdParam = z.object({ id: tagId });
export const DeviceIdParam = z.object({ id: deviceId });
export const NoteTagParams = z.object({ id: noteId, tagId });
