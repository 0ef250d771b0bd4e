/**
 * The notes service's queries (read side), HTTP-agnostic. Everything is scoped to the caller:
 * another user's note, tag or device answers exactly like a missing one (NotFound with the
 * same message).
 */
import { isEntityId } from '../../commands/shared/user-scoped.js';
import { NotFound } from '../../commands/shared/errors.js';
import type { DeviceView } from '../../projections/devices/document.js';
import { getDevice, listDevices } from '../../projections/devices/queries.js';
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
import { noteStreamId } from '../../commands/note/index.js';
import { notesProjector } from '../../projections/notes/projector.js';
import { projectInMemory } from '../../projections/shared/in-memory.js';
import type { EventStore } from '../eventstore/types.js';
import type { ReadStore } from '../readstore/types.js';

export interface NotesQueryDeps {
  readStore: ReadStore;
  /** history is read from the note's own events */
  events: EventStore;
}

export function createNotesQueries({ readStore, events }: NotesQueryDeps) {
  return {
    listNotes: (userId: string, options?: ListNotesOptions) =>
      listNotes(readStore, userId, options),

    async getNote(userId: string, noteId: string): Promise<NoteView> {
      const note = await getNote(readStore, userId, noteId);
      if (!note) throw new NotFound('note not found');
      return note;
    },

    /**
     * The note as it stood at `revision`: its own stream up to there, folded by the notes
     * projector in memory — the answer of a write that another write has already followed.
     */
    async noteAt(userId: string, noteId: string, revision: number): Promise<NoteView> {
      const recorded = await events.readStream(noteStreamId(userId, noteId), {
        maxCount: revision + 1,
      });
      const store = await projectInMemory(notesProjector(), recorded);
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

    /** Tags by id, deleted ones included (to show a note's tags by name). */
    getTags: (userId: string, tagIds: readonly string[]) => getTags(readStore, userId, tagIds),

    listDevices: (userId: string) => listDevices(readStore, userId),

    async getDevice(userId: string, deviceId: string): Promise<DeviceView> {
      const device = await getDevice(readStore, userId, deviceId);
      if (!device) throw new NotFound('device not found');
      return device;
    },

    syncChanges: (
      userId: string,
      cursor: string | undefined,
      options?: { limit?: number },
    ): Promise<SyncResult> => syncChanges(readStore, userId, cursor, options),
  };
}

export type NotesQueries = ReturnType<typeof createNotesQueries>;
