import { expect } from 'chai';
import { type NoteMetadata, noteStreamId } from '../../commands/note/index.js';
import { InvalidArgument } from '../../commands/shared/errors.js';
import { notesCollection } from '../../projections/notes/document.js';
import { notesProjector } from '../../projections/notes/projector.js';
import { getNote, listNotes } from '../../projections/notes/queries.js';
import type { Projector } from '../../projections/shared/projector.js';
import type { RecordedEvent } from '../../src/eventstore/types.js';
import type { ReadStore } from '../../src/readstore/types.js';
import { eventLog } from '../support/notes-events.js';
import { openTestStores, type TestStores } from '../support/stores.js';

const none: NoteMetadata = { latitude: null, longitude: null, deviceId: null, placeName: null };
const created = (noteId: string, userId: string, title = 'T') => ({
  noteId,
  userId,
  title,
  content: `content of ${noteId}`,
  tagIds: [],
  metadata: none,
});

async function project(projector: Projector, store: ReadStore, events: RecordedEvent[]) {
  for (const event of events) await projector.apply(event, store);
}

describe('Notes projection', () => {
  let stores: TestStores;
  let projector: Projector;
  beforeEach(async () => {
    stores = await openTestStores();
    projector = notesProjector();
    await projector.setup?.(stores.readStore);
  });
  afterEach(async () => {
    await stores.cleanup();
  });

  describe('When a note goes through its life', () => {
    it('reflects every change, and running the events twice changes nothing', async () => {
      const { log, add } = eventLog();
      const s = noteStreamId('u1', 'n1');
      add(s, 'NoteCreated', { ...created('n1', 'u1'), tagIds: ['a'] }, 1000);
      add(
        s,
        'NoteUpdated',
        {
          title: 'T2',
          content: 'C2',
          tagIds: ['a', 'b'],
          metadata: { ...none, latitude: 1, longitude: 2, placeName: 'X, YY' },
        },
        2000,
      );
      add(s, 'TagRemovedFromNote', { tagId: 'a' }, 3000);
      add(s, 'TagAddedToNote', { tagId: 'c' }, 4000);
      add(s, 'NoteTrashed', {}, 5000);
      await project(projector, stores.readStore, log);
      const once = await getNote(stores.readStore, 'u1', 'n1');
      expect(once).to.deep.include({
        id: 'n1',
        userId: 'u1',
        title: 'T2',
        content: 'C2',
        tags: ['b', 'c'],
        createdAt: 1000,
        updatedAt: 5000,
        deletedAt: 5000,
        revision: 4,
      });
      expect(once?.metadata).to.deep.equal({
        latitude: 1,
        longitude: 2,
        deviceId: null,
        placeName: 'X, YY',
      });

      // Runs twice: replaying the whole log (and a single older event) leaves the document as is.
      await project(projector, stores.readStore, log);
      await project(projector, stores.readStore, [log[2]!]);
      expect(await getNote(stores.readStore, 'u1', 'n1')).to.deep.equal(once);

      add(s, 'NoteRestored', {}, 6000);
      await project(projector, stores.readStore, log.slice(-1));
      expect(await getNote(stores.readStore, 'u1', 'n1')).to.deep.include({
        deletedAt: null,
        updatedAt: 6000,
        revision: 5,
      });
    });
  });

  describe('When the notes of several users are listed', () => {
    it('shows each user only their own notes, most recently updated first', async () => {
      const { log, add } = eventLog();
      add(noteStreamId('u1', 'a'), 'NoteCreated', created('a', 'u1'), 1);
      add(noteStreamId('u2', 'b'), 'NoteCreated', created('b', 'u2'), 2);
      add(noteStreamId('u1', 'c'), 'NoteCreated', created('c', 'u1'), 3);
      add(
        noteStreamId('u1', 'a'),
        'NoteUpdated',
        { title: 'new', content: 'c', tagIds: [], metadata: none },
        4,
      );
      await project(projector, stores.readStore, log);
      const u1 = await listNotes(stores.readStore, 'u1');
      expect(u1.notes.map((n) => n.id)).to.deep.equal(['a', 'c']);
      expect((await listNotes(stores.readStore, 'u2')).notes.map((n) => n.id)).to.deep.equal(['b']);
      expect(await getNote(stores.readStore, 'u2', 'a')).to.equal(null);
      expect(u1.notes[0]).to.not.have.property('_pos');
    });
  });

  describe('When 500 notes are walked with limit 7', () => {
    it('returns every active note exactly once, and includeDeleted adds the trashed ones', async () => {
      // spec: "lists notes, most recently updated first; paginated with nextPageToken"
      const { log, add } = eventLog();
      const trashed = new Set<string>();
      for (let i = 0; i < 500; i++) {
        const id = `n${String(i).padStart(3, '0')}`;
        // many notes share a timestamp, so ties on updatedAt must be broken by id
        add(noteStreamId('u1', id), 'NoteCreated', created(id, 'u1'), 1000 + Math.floor(i / 10));
        if (i % 9 === 0) {
          add(noteStreamId('u1', id), 'NoteTrashed', {}, 2000);
          trashed.add(id);
        }
      }
      add(noteStreamId('u2', 'other'), 'NoteCreated', created('other', 'u2'), 1500);
      await project(projector, stores.readStore, log);

      const walk = async (includeDeleted: boolean) => {
        const seen: string[] = [];
        let pageToken: string | undefined;
        let pages = 0;
        do {
          const page = await listNotes(stores.readStore, 'u1', {
            limit: 7,
            pageToken,
            includeDeleted,
          });
          expect(page.notes.length).to.be.at.most(7);
          seen.push(...page.notes.map((n) => n.id));
          pageToken = page.nextPageToken ?? undefined;
          pages++;
        } while (pageToken);
        return { seen, pages };
      };
      const active = await walk(false);
      expect(active.seen).to.have.length(500 - trashed.size);
      expect(new Set(active.seen).size).to.equal(active.seen.length);
      expect(active.seen.some((id) => trashed.has(id))).to.equal(false);
      expect(active.pages).to.equal(Math.ceil((500 - trashed.size) / 7));
      const all = await walk(true);
      expect(all.seen).to.have.length(500);
      expect(new Set(all.seen).size).to.equal(500);
      expect(all.seen).to.not.include('other');
    });

    it('never repeats a note updated mid-walk; unchanged notes still appear exactly once', async () => {
      const { log, add } = eventLog();
      for (let i = 0; i < 30; i++) {
        add(
          noteStreamId('u1', `n${String(i).padStart(2, '0')}`),
          'NoteCreated',
          created(`n${String(i).padStart(2, '0')}`, 'u1'),
          1000 + i,
        );
      }
      await project(projector, stores.readStore, log);
      const first = await listNotes(stores.readStore, 'u1', { limit: 10 });
      const seen = first.notes.map((n) => n.id);
      // a note already returned and one not yet reached are both updated during the walk
      const before = log.length;
      add(noteStreamId('u1', seen[0]!), 'TagAddedToNote', { tagId: 't' }, 5000);
      add(noteStreamId('u1', 'n05'), 'TagAddedToNote', { tagId: 't' }, 5001);
      await project(projector, stores.readStore, log.slice(before));
      let token = first.nextPageToken ?? undefined;
      while (token) {
        const page = await listNotes(stores.readStore, 'u1', { limit: 10, pageToken: token });
        seen.push(...page.notes.map((n) => n.id));
        token = page.nextPageToken ?? undefined;
      }
      expect(new Set(seen).size).to.equal(seen.length);
      const unchanged = Array.from(
        { length: 30 },
        (_, i) => `n${String(i).padStart(2, '0')}`,
      ).filter((id) => id !== 'n05');
      expect(seen).to.include.members(unchanged);
    });
  });

  describe('When list parameters are at and past their bounds', () => {
    it('accepts limit 1 and 100 and rejects 0, 101 and 2.5', async () => {
      // spec: "`limit` (integer 1 to 100, default 20)"
      for (const limit of [1, 100]) await listNotes(stores.readStore, 'u1', { limit });
      for (const limit of [0, 101, 2.5]) {
        let error: unknown;
        await listNotes(stores.readStore, 'u1', { limit }).catch((e) => {
          error = e;
        });
        expect(error, `limit ${limit}`).to.be.instanceOf(InvalidArgument);
      }
    });
    it('rejects a tampered page token', async () => {
      let error: unknown;
      await listNotes(stores.readStore, 'u1', { pageToken: 'not-a-token' }).catch((e) => {
        error = e;
      });
      expect(error).to.be.instanceOf(InvalidArgument);
    });
    it('defaults to 20 notes a page', async () => {
      const { log, add } = eventLog();
      for (let i = 0; i < 25; i++)
        add(noteStreamId('u1', `n${i}`), 'NoteCreated', created(`n${i}`, 'u1'), i);
      await project(projector, stores.readStore, log);
      const page = await listNotes(stores.readStore, 'u1');
      expect(page.notes).to.have.length(20);
      expect(page.nextPageToken).to.be.a('string');
      expect(
        await stores.readStore.collection(notesCollection).countDocuments({ userId: 'u1' }),
      ).to.equal(25);
    });
  });
});
