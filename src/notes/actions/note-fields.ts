/**
 * What a client sends for a note (POST and PUT) and how it becomes a version: the rules the
 * deciders will apply, checked before anything is created, and the names resolved to ids.
 */
import { validDeviceName } from '../../../commands/device/index.js';
import {
  checkCoordinates,
  checkNoteText,
  checkTagCount,
  type NoteMetadata,
  noteStreamId,
  requestClaimDecider,
  requestClaimStreamId,
} from '../../../commands/note/index.js';
import { tagNameKey, validTagName } from '../../../commands/tag/index.js';
import { getTags } from '../../../projections/tags/queries.js';
import { type CommandContext, derivedId, latest, type NotesDeps, unkeyed } from './deps.js';
import { planDevice } from './devices.js';
import { takePlaces } from './named-places.js';
import { planTags } from './tags.js';

/** Null coordinates or device mean none, as if they were left out. */
export interface NoteFields {
  title?: string;
  content: string;
  /** tag names; unknown names are created as tags */
  tags?: string[];
  metadata?: {
    latitude?: number | null;
    longitude?: number | null;
    /** device name; a device of that name is registered when the user has none */
    device?: string | null;
  };
}

/**
 * The note, tag and device rules the deciders will apply, checked before resolve() creates
 * anything: a refused note must leave no tag or device behind.
 */
export function checkFields(fields: NoteFields): void {
  checkNoteText({ title: fields.title ?? '', content: fields.content });
  if (fields.tags) {
    checkTagCount(fields.tags.length);
    for (const [i, name] of fields.tags.entries()) validTagName(name, `tags[${i}]`);
  }
  const { latitude, longitude, device } = fields.metadata ?? {};
  checkCoordinates(latitude ?? null, longitude ?? null);
  if (device != null) validDeviceName(device, 'metadata.device');
}

/**
 * Tags, device and place of checked fields; creates what does not exist yet. `context` is the
 * note write's (keyedBy), `note` the note it writes, `carried` the ids of the tags it carries
 * (a PUT); not called for a retry of a write that landed (notes.ts), which is answered from its
 * first attempt.
 */
export async function resolve(
  deps: NotesDeps,
  context: CommandContext,
  note: { userId: string; noteId: string },
  fields: NoteFields,
  carried: readonly string[] = [],
) {
  const { userId } = note;
  await claimKey(deps, context, note);
  const tags = fields.tags
    ? await planTags(deps, context, {
        userId,
        names: fields.tags,
        kept: fields.tags.length > 0 ? await deletedTagsOf(deps, userId, carried) : undefined,
      })
    : null;
  const meta = fields.metadata ?? {};
  const device = meta.device
    ? await planDevice(deps, context, { userId, name: meta.device })
    : null;
  // the new tags and device take their places together, before any is made: a note refused
  // for one (409 past NOTES_TAGS_PER_USER or NOTES_DEVICES_PER_USER) makes none
  const wanted = [tags?.wanted, device?.wanted].filter((w) => w != null);
  if (wanted.length > 0) await takePlaces(deps, context, userId, wanted);
  const named = tags && (await tags.ensure());
  const made = device && (await device.ensure());
  const latitude = meta.latitude ?? null;
  const longitude = meta.longitude ?? null;
  const metadata: NoteMetadata = {
    latitude,
    longitude,
    deviceId: made?.device.id ?? null,
    placeName:
      latitude !== null && longitude !== null
        ? await deps.places.placeName(latitude, longitude)
        : null,
  };
  return { tagIds: named?.tagIds, metadata, position: latest(named?.position, made?.position) };
}

/**
 * The soft-deleted tags among a note's, by name key. The spec leaves a note's associations with
 * a deleted tag alone, and a client editing a note sends back the names the note shows: such a
 * name names that tag, not a new one (which would bring back a tag the user deleted).
 */
async function deletedTagsOf(
  deps: NotesDeps,
  userId: string,
  tagIds: readonly string[],
): Promise<Map<string, string>> {
  const tags = await getTags(deps.readStore, userId, tagIds);
  return new Map(tags.filter((t) => t.deletedAt !== null).map((t) => [tagNameKey(t.name), t.id]));
}

/**
 * A note write with an Idempotency-Key claims its key with its request's hash
 * (commands/note/request-claim.ts) before it creates any tag or device: of two different
 * requests under one key, the second is refused (412) there — before it creates anything, also
 * while the first has not written the note yet, when the note's stream cannot tell. Every first
 * attempt claims, even one that creates nothing, since it may be the one that wins the note.
 */
async function claimKey(
  deps: NotesDeps,
  context: CommandContext,
  note: { userId: string; noteId: string },
): Promise<void> {
  const { idempotencyKey: key, requestHash } = context;
  if (!key || !requestHash) return;
  const scope = noteStreamId(note.userId, note.noteId);
  const stream = requestClaimStreamId(note.userId, derivedId(context.actor ?? '', scope, key));
  const command = { type: 'ClaimRequestKey' as const, data: { requestHash } };
  await deps.commandHandler.handle(stream, requestClaimDecider, command, unkeyed(context));
}
