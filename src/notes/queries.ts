/**
 * The notes service's queries (read side), HTTP-agnostic. Everything is scoped to the caller:
 * another user's note, tag or device answers exactly like a missing one (NotFound with the
 * same message).
 */
import { isEntityId } from '../../commands/shared/user-scoped.js';
import { NotFound } from '../../commands/shared/errors.js';
import type { DeviceView } from '../../projections/devices/document.js';
import { getDevice, getDevices, listDevices } from '../../projections/devices/queries.js';
import { type NoteVersionView, noteHistory } from './history.js';
import {
  getNote,
  getNotes,
  type ListNotesOptions,
  listNotes,
  type NoteView,
} from '../../projections/notes/queries.js';
import { type SyncResult, syncChanges } from '../../projections/sync/queries.js';
import type { TagView } from '../../projections/tags/document.js';
import { getTag, getTags, listTags } from '../../projections/tags/queries.js';
import { deviceStreamId } from '../../commands/device/index.js';
import { noteStreamId } from '../../commands/note/index.js';
import { tagStreamId } from '../../commands/tag/index.js';
import { devicesProjector } from '../../projections/devices/projector.js';
import type { Projector } from '../../projections/shared/projector.js';
import { tagsProjector } from '../../projections/tags/projector.js';
import { notesProjector } from '../../projections/notes/projector.js';
import { projectInMemory } from '../read/project-in-memory.js';
import type { EventStore } from '../eventstore/types.js';
import type { ReadStore } from '../readstore/types.js';

export interface NotesQueryDeps {
  readStore: ReadStore;
  /** history is read from the note's own events */
  events: EventStore;
}

export function createNotesQueries({ readStore, events }: NotesQueryDeps) {
  /** One stream up to `revision`, folded by its own projector in memory. */
  async function asOf(streamId: string, revision: number, projector: Projector) {
    return projectInMemory(
      projector,
      await events.readStream(streamId, { maxCount: revision + 1 }),
    );
  }

  return {
    listNotes: (userId: string, options?: ListNotesOptions) =>
      listNotes(readStore, userId, options),

    async getNote(userId: string, noteId: string): Promise<NoteView> {
      const note = await getNote(readStore, userId, noteId);
      if (!note) throw new NotFound('note not found');
      return note;
    },

    /**
     * The note as it stood at `revision` — the answer of a write that another write has already
     * followed, or of a retry answered from its first attempt. Tags and devices alike.
     */
    async noteAt(userId: string, noteId: string, revision: number): Promise<NoteView> {
      const store = await asOf(noteStreamId(userId, noteId), revision, notesProjector());
      const note = await getNote(store, userId, noteId);
      if (!note) throw new NotFound('note not found');
      return note;
    },

    /** Notes by id (missing ones left out), e.g. to attach current notes to sync changes. */
    getNotes: (userId: string, noteIds: readonly string[]) => getNotes(readStore, userId, noteIds),

    /** Archived versions, newest first. */
    async history(userId: string, noteId: string): Promise<NoteVersionView[]> {
      if (!isEntityId(noteId)) throw new NotFound('note not found');
      const versions = await noteHistory(events, userId, noteId);
      if (!versions) throw new NotFound('note not found');
      return versions;
    },

    listTags: (userId: string, options?: { includeDeleted?: boolean }) =>
      listTags(readStore, userId, options),

    async getTag(userId: string, tagId: string): Promise<TagView> {
      const tag = await getTag(readStore, userId, tagId);
      if (!tag) throw new NotFound('tag not found');
      return tag;
    },

    async tagAt(userId: string, tagId: string, revision: number): Promise<TagView> {
      const store = await asOf(tagStreamId(userId, tagId), revision, tagsProjector());
      const tag = await getTag(store, userId, tagId);
      if (!tag) throw new NotFound('tag not found');
      return tag;
    },

    /** Tags by id, deleted ones included (to show a note's tags by name). */
    getTags: (userId: string, tagIds: readonly string[]) => getTags(readStore, userId, tagIds),

    listDevices: (userId: string) => listDevices(readStore, userId),

    /** Devices by id (to show notes' device names): the user's other devices are not read. */
    getDevices: (userId: string, deviceIds: readonly string[]) =>
      getDevices(readStore, userId, deviceIds),

    async getDevice(userId: string, deviceId: string): Promise<DeviceView> {
      const device = await getDevice(readStore, userId, deviceId);
      if (!device) throw new NotFound('device not found');
      return device;
    },

    async deviceAt(userId: string, deviceId: string, revision: number): Promise<DeviceView> {
      const store = await asOf(deviceStreamId(userId, deviceId), revision, devicesProjector());
      const device = await getDevice(store, userId, deviceId);
      if (!device) throw new NotFound('device not found');
      return device;
    },

    syncChanges: (
      userId: string,
      cursor: string | null | undefined,
      options?: { limit?: number },
    ): Promise<SyncResult> => syncChanges(readStore, userId, cursor, options),
  };
}

export type NotesQueries = ReturnType<typeof createNotesQueries>;
