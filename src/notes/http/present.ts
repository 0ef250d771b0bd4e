/**
 * Read-model views to wire shapes. A note stores tag ids and a device id; the API shows the tags
 * (id, name, colour, parent) and the device name, resolved in one batch per response so a page of
 * 100 notes costs two extra reads, not 200.
 */
import type { z } from 'zod';
import type { NoteMetadata } from '../../../commands/note/index.js';
import type { DeviceView } from '../../../projections/devices/document.js';
import type { NoteVersionView } from '../history.js';
import type { NoteView } from '../../../projections/notes/queries.js';
import type { TagView } from '../../../projections/tags/document.js';
import type { NotesQueries } from '../queries.js';
import type { Device, Note, NoteMetadataOut, NoteTagRef, NoteVersion, Tag } from './schemas.js';

type NoteOut = z.input<typeof Note>;
type TagRefOut = z.input<typeof NoteTagRef>;

export const iso = (ms: number): string => new Date(ms).toISOString();
export const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));

export function presentTag(tag: TagView): z.input<typeof Tag> {
  return {
    id: tag.id,
    name: tag.name,
    color: tag.color,
    parentId: tag.parentId,
    createdAt: iso(tag.createdAt),
    updatedAt: iso(tag.updatedAt),
    deletedAt: isoOrNull(tag.deletedAt),
    revision: tag.revision,
  };
}

export function presentDevice(device: DeviceView): z.input<typeof Device> {
  return {
    id: device.id,
    name: device.name,
    platform: device.platform,
    createdAt: iso(device.createdAt),
    updatedAt: iso(device.updatedAt),
    revision: device.revision,
  };
}

interface Lookups {
  tags: Map<string, TagRefOut>;
  devices: Map<string, string>;
}

/** `oauth:<client_id>`: the `via` label of a change an app made (http/types.ts commandContext) */
const clientIdOf = (via: string | null): string | null =>
  via?.startsWith('oauth:') ? via.slice('oauth:'.length) : null;

/**
 * `clientName`: an app's registered name by its client_id (null when none or no longer
 * registered); history versions show it beside the id.
 */
export function createPresenter(
  queries: NotesQueries,
  clientName: (clientId: string) => Promise<string | null> = async () => null,
) {
  /** tags and device names referenced by these notes / versions */
  async function lookups(
    userId: string,
    items: readonly { tags: readonly string[]; metadata: NoteMetadata }[],
  ): Promise<Lookups> {
    const tagIds = [...new Set(items.flatMap((n) => n.tags))];
    const deviceIds = [...new Set(items.flatMap((n) => n.metadata.deviceId ?? []))];
    // by id: reading all the user's devices made each note read cost ~1 s at 10,000 devices
    const [tags, devices] = await Promise.all([
      queries.getTags(userId, tagIds),
      queries.getDevices(userId, deviceIds),
    ]);
    return {
      tags: new Map(
        tags.map((t) => [t.id, { id: t.id, name: t.name, color: t.color, parentId: t.parentId }]),
      ),
      devices: new Map(devices.map((d) => [d.id, d.name])),
    };
  }

  const tagsOf = (ids: readonly string[], l: Lookups) =>
    ids.flatMap((id) => {
      const tag = l.tags.get(id);
      return tag ? [tag] : [];
    });

  const metadataOf = (m: NoteMetadata, l: Lookups): z.input<typeof NoteMetadataOut> => ({
    latitude: m.latitude,
    longitude: m.longitude,
    device: m.deviceId === null ? null : (l.devices.get(m.deviceId) ?? null),
    placeName: m.placeName,
  });

  const noteWith = (note: NoteView, l: Lookups): NoteOut => ({
    id: note.id,
    title: note.title,
    content: note.content,
    tags: tagsOf(note.tags, l),
    metadata: metadataOf(note.metadata, l),
    createdAt: iso(note.createdAt),
    updatedAt: iso(note.updatedAt),
    deletedAt: isoOrNull(note.deletedAt),
    revision: note.revision,
  });

  return {
    async notes(userId: string, notes: readonly NoteView[]): Promise<NoteOut[]> {
      const l = await lookups(userId, notes);
      return notes.map((note) => noteWith(note, l));
    },
    async note(userId: string, note: NoteView): Promise<NoteOut> {
      return noteWith(note, await lookups(userId, [note]));
    },
    async versions(
      userId: string,
      versions: readonly NoteVersionView[],
    ): Promise<z.input<typeof NoteVersion>[]> {
      const l = await lookups(userId, versions);
      const ids = [...new Set(versions.flatMap((v) => [v.madeVia, v.replacedVia].map(clientIdOf)))];
      const names = new Map<string | null, string | null>(
        await Promise.all(
          ids.map(async (id) => [id, id === null ? null : await clientName(id)] as const),
        ),
      );
      const appOf = (via: string | null) => {
        const clientId = clientIdOf(via);
        return clientId === null ? null : { clientId, clientName: names.get(clientId) ?? null };
      };
      return versions.map((v) => ({
        title: v.title,
        content: v.content,
        tags: tagsOf(v.tags, l),
        metadata: metadataOf(v.metadata, l),
        archivedAt: iso(v.archivedAt),
        revision: v.revision,
        madeBy: appOf(v.madeVia),
        replacedBy: appOf(v.replacedVia),
      }));
    },
  };
}

export type Presenter = ReturnType<typeof createPresenter>;
