import { expect } from 'chai';
import {
  type NoteEvent,
  type NoteMetadata,
  noteDecider,
  parseNoteStreamId,
} from '../../commands/note/index.js';
import { RevisionMismatch } from '../../commands/shared/revision.js';
import {
  AlreadyExists,
  Conflict,
  FailedPrecondition,
  InvalidArgument,
  NotFound,
} from '../../commands/shared/errors.js';
import { deciderSpec } from '../support/decider.js';

const given = deciderSpec(noteDecider);
const noMetadata: NoteMetadata = {
  latitude: null,
  longitude: null,
  deviceId: null,
  placeName: null,
};
const paris: NoteMetadata = {
  latitude: 48.8566,
  longitude: 2.3522,
  deviceId: 'd1',
  placeName: 'Paris, FR',
};
const created: NoteEvent = {
  type: 'NoteCreated',
  data: {
    noteId: 'n1',
    userId: 'u1',
    title: 'T',
    content: 'C',
    tagIds: ['a'],
    metadata: noMetadata,
  },
};
const trashed: NoteEvent = { type: 'NoteTrashed', data: {} };
const createCommand = {
  type: 'CreateNote' as const,
  data: {
    noteId: 'n1',
    userId: 'u1',
    title: 'T',
    content: 'C',
    tagIds: ['a', 'a'],
    metadata: noMetadata,
  },
};

describe('Note decider', () => {
  describe('When a note is created', () => {
    it('records the note with de-duplicated tag ids', () => {
      given([]).when(createCommand).then([created]);
    });
    it('rejects a missing content', () => {
      // spec: "content | string | required on create"
      given([])
        .when({ ...createCommand, data: { ...createCommand.data, content: '' } })
        .thenThrows(InvalidArgument, /content/);
    });
    it('rejects a latitude out of range', () => {
      const metadata = { ...paris, latitude: 90.0001 };
      given([])
        .when({ ...createCommand, data: { ...createCommand.data, metadata } })
        .thenThrows(InvalidArgument, /latitude/);
    });
    it('rejects a longitude out of range', () => {
      const metadata = { ...paris, longitude: -180.5 };
      given([])
        .when({ ...createCommand, data: { ...createCommand.data, metadata } })
        .thenThrows(InvalidArgument, /longitude/);
    });
    it('rejects a latitude without a longitude', () => {
      const metadata = { ...paris, longitude: null };
      given([])
        .when({ ...createCommand, data: { ...createCommand.data, metadata } })
        .thenThrows(InvalidArgument, /together/);
    });
    it('accepts coordinates exactly at the bounds, at both poles and both sides of the antimeridian', () => {
      // "latitude must be between -90 and 90", "longitude must be between -180 and 180": inclusive
      for (const [latitude, longitude] of [
        [-90, 180],
        [90, -180],
      ]) {
        const metadata = { ...paris, latitude, longitude };
        const command = { ...createCommand, data: { ...createCommand.data, tagIds: [], metadata } };
        const [event] = noteDecider.decide(command, noteDecider.initialState());
        expect(event?.type).to.equal('NoteCreated');
      }
    });
    it('accepts as many tags as the OpenAPI allows (100) and refuses one more', () => {
      const tagIds = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`);
      const withTags = (n: number) => ({
        ...createCommand,
        data: { ...createCommand.data, tagIds: tagIds(n) },
      });
      expect(noteDecider.decide(withTags(100), noteDecider.initialState())).to.have.length(1);
      given([])
        .when(withTags(101))
        .thenThrows(InvalidArgument, /at most 100 tags/);
    });
    it('refuses to create the same note twice', () => {
      given([created]).when(createCommand).thenThrows(AlreadyExists);
    });
  });

  describe('When a note is updated (PUT)', () => {
    const put = {
      type: 'UpdateNote' as const,
      data: { title: 'T2', content: 'C2', metadata: paris },
    };
    it('records the full new version, keeping the tags when none are sent', () => {
      given([created])
        .when(put)
        .then([
          {
            type: 'NoteUpdated',
            data: { title: 'T2', content: 'C2', tagIds: ['a'], metadata: paris },
          },
        ]);
    });
    it('replaces the whole tag set when tags are sent', () => {
      // spec: "when `tags` is sent it replaces the whole tag set"
      given([created])
        .when({ ...put, data: { ...put.data, tagIds: ['b'] } })
        .then([
          {
            type: 'NoteUpdated',
            data: { title: 'T2', content: 'C2', tagIds: ['b'], metadata: paris },
          },
        ]);
    });
    it('records nothing when the version is unchanged', () => {
      given([created])
        .when({ type: 'UpdateNote', data: { title: 'T', content: 'C', metadata: noMetadata } })
        .then([]);
    });
    it('answers a lost update with a revision mismatch (If-Match)', () => {
      given([created, { type: 'TagAddedToNote', data: { tagId: 'b' } }])
        .when({ ...put, data: { ...put.data, expectedRevision: 0 } })
        .thenThrows(RevisionMismatch);
      expect(new RevisionMismatch(0, 1)).to.be.instanceOf(Conflict);
    });
    it('accepts the matching revision', () => {
      given([created])
        .when({ ...put, data: { ...put.data, expectedRevision: 0 } })
        .thenState((state) => expect(state.revision).to.equal(1));
    });
    it('refuses to change a trashed note', () => {
      given([created, trashed]).when(put).thenThrows(FailedPrecondition, /trash/);
    });
    it('answers not found for a note that does not exist', () => {
      given([]).when(put).thenThrows(NotFound);
    });
  });

  describe('When tags are added and removed', () => {
    it('adds an existing tag once', () => {
      given([created])
        .when({ type: 'AddTagToNote', data: { tagId: 'b', tag: 'active' } })
        .then([{ type: 'TagAddedToNote', data: { tagId: 'b' } }]);
      given([created])
        .when({ type: 'AddTagToNote', data: { tagId: 'a', tag: 'active' } })
        .then([]);
    });
    it('refuses a tag that does not exist for the user', () => {
      given([created])
        .when({ type: 'AddTagToNote', data: { tagId: 'x', tag: 'absent' } })
        .thenThrows(NotFound, /tag/);
    });
    it('refuses a deleted tag as a conflict, not as missing: the tag can still be read', () => {
      given([created])
        .when({ type: 'AddTagToNote', data: { tagId: 'b', tag: 'deleted' } })
        .thenThrows(FailedPrecondition, /tag is deleted/);
    });
    it('adds nothing, and refuses nothing, for a tag on the note that was deleted since', () => {
      // "Adding a tag the note has changes nothing" (add_note_tag), and deleting a tag leaves
      // "existing note associations … alone" (spec, tag lifecycle)
      given([created])
        .when({ type: 'AddTagToNote', data: { tagId: 'a', tag: 'deleted' } })
        .then([]);
    });
    it('removes a tag on the note even when the tag was deleted since', () => {
      given([created])
        .when({ type: 'RemoveTagFromNote', data: { tagId: 'a', tag: 'deleted' } })
        .then([{ type: 'TagRemovedFromNote', data: { tagId: 'a' } }]);
    });
    it('answers not found when removing an unknown tag', () => {
      given([created])
        .when({ type: 'RemoveTagFromNote', data: { tagId: 'x', tag: 'absent' } })
        .thenThrows(NotFound);
    });
  });

  describe('When a note is trashed and restored', () => {
    it('trashes an active note, and trashing again changes nothing', () => {
      given([created]).when({ type: 'TrashNote', data: {} }).then([trashed]);
      given([created, trashed]).when({ type: 'TrashNote', data: {} }).then([]);
    });
    it('restores a trashed note, and restoring an active one changes nothing', () => {
      given([created, trashed])
        .when({ type: 'RestoreNote', data: {} })
        .then([{ type: 'NoteRestored', data: {} }]);
      given([created]).when({ type: 'RestoreNote', data: {} }).then([]);
    });
    it('checks If-Match on delete', () => {
      given([created])
        .when({ type: 'TrashNote', data: { expectedRevision: 3 } })
        .thenThrows(RevisionMismatch);
    });
  });

  describe('When a stream id is parsed', () => {
    it('splits at the last dot so user ids may contain dots', () => {
      expect(parseNoteStreamId('note-a.b.n1')).to.deep.equal({ userId: 'a.b', noteId: 'n1' });
      expect(parseNoteStreamId('notetag-a.n1')).to.equal(null);
    });
  });
});
