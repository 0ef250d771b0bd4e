/**
 * One Idempotency-Key sent with different requests. OpenAPI (Idempotency-Key header): "the same
 * key on the same resource returns the first result instead of writing again; the same key with
 * a different request is refused" — a Conflict, which the notes service answers with 412 (as
 * create_note always did). And notes.ts: "nothing is created for a doomed request".
 */
import { expect } from 'chai';
import { Conflict } from '../../commands/shared/errors.js';
import { noteStreamId } from '../../commands/note/index.js';
import {
  createNote,
  createTag,
  type NoteFields,
  registerDevice,
  updateNote,
} from '../../src/notes/actions/index.js';
import {
  fakePlaces,
  type NotesHarness,
  type Outcome,
  outcome,
  pausingBefore,
  startNotes,
} from './harness.js';

describe('Writes under one Idempotency-Key with different requests', () => {
  let h: NotesHarness;
  let u: string;
  let users = 0;
  before(async () => {
    h = await startNotes({ places: fakePlaces() });
  });
  after(async () => h.stop());
  beforeEach(() => {
    u = `keyed-${++users}`;
  });
  const keyed = (key = 'k-1') => h.ctx(u, { idempotencyKey: key });
  const onlyFirst = (outcomes: Outcome<unknown>[]) => {
    expect(
      outcomes.filter((o) => o.error === undefined),
      'one succeeds',
    ).to.have.length(1);
    for (const { error } of outcomes.filter((o) => o.error)) {
      expect(error, String(error)).to.be.instanceOf(Conflict);
      expect(error?.message).to.match(/already used for a different request/);
    }
  };
  const tagNames = async () => (await h.queries.listTags(u)).map((t) => t.name);
  const deviceNames = async () => (await h.queries.listDevices(u)).map((d) => d.name);

  describe('When a tag or device is created twice under one key with different names', () => {
    it('creates the first and refuses the second (412), one after the other', async () => {
      await h.run(createTag(h.deps, keyed(), { userId: u, name: 'seqA' }));
      const second = await outcome(h.run(createTag(h.deps, keyed(), { userId: u, name: 'seqB' })));
      onlyFirst([{ ok: 1 }, second]);
      expect(await tagNames()).to.deep.equal(['seqA']);
      const device = (name: string) =>
        outcome(h.run(registerDevice(h.deps, keyed(), { userId: u, name, platform: 'ios' })));
      onlyFirst([await device('seqA'), await device('seqB')]);
      expect(await deviceNames()).to.deep.equal(['seqA']);
    });

    it('creates one of 20 concurrent ones and refuses the rest', async () => {
      const tags = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          outcome(h.run(createTag(h.deps, keyed(), { userId: u, name: `t-${i}` }))),
        ),
      );
      onlyFirst(tags);
      expect(await tagNames()).to.have.length(1);
      const devices = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          outcome(
            h.run(registerDevice(h.deps, keyed(), { userId: u, name: `d-${i}`, platform: 'x' })),
          ),
        ),
      );
      onlyFirst(devices);
      expect(await deviceNames()).to.have.length(1);
    });

    it('still answers a retry of the same request with the first result', async () => {
      const first = await h.run(createTag(h.deps, keyed(), { userId: u, name: 'once', color: 2 }));
      const again = await h.run(createTag(h.deps, keyed(), { userId: u, name: 'once', color: 2 }));
      expect(again).to.deep.include({ replayed: true, revision: first.revision });
      expect(again.tag).to.deep.equal(first.tag);
    });
  });

  describe('When notes naming different new tags are written under one key', () => {
    const note = (i: number) => ({ userId: u, content: 'x', tags: [`t-${i}`] });

    it('creates no tag for a create refused for its key, one after the other', async () => {
      await h.run(createNote(h.deps, keyed(), note(0)));
      onlyFirst([{ ok: 1 }, await outcome(h.run(createNote(h.deps, keyed(), note(1))))]);
      expect(await tagNames()).to.deep.equal(['t-0']);
    });

    it('creates the tags of only one of 20 concurrent creates', async () => {
      // the audit: 1×201, 19×412 "Idempotency-Key was already used …", but 20 new tags
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) => outcome(h.run(createNote(h.deps, keyed(), note(i))))),
      );
      onlyFirst(outcomes);
      const winner = outcomes.find((o) => o.ok)?.ok;
      expect(await h.queries.listTags(u)).to.have.length(1);
      expect(winner?.note.tags).to.deep.equal([(await h.queries.listTags(u))[0]?.id]);
    });

    it('creates the tags of only one of 20 concurrent updates of one note', async () => {
      const { note: made } = await h.run(createNote(h.deps, h.ctx(u), { userId: u, content: 'x' }));
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          outcome(h.run(updateNote(h.deps, keyed(), { ...note(i), noteId: made.id }))),
        ),
      );
      onlyFirst(outcomes);
      expect(await h.queries.listTags(u)).to.have.length(1);
    });

    const seconds: [string, NoteFields][] = [
      [
        'naming a new tag and device',
        { content: 'second', tags: ['t-2'], metadata: { device: 'Desk' } },
      ],
      ['creating nothing', { content: 'second' }],
    ];
    for (const [what, second] of seconds) {
      it(`refuses a second one ${what} while the first has created its tag but not its note`, async () => {
        let other: Outcome<unknown> | undefined;
        const noteEvent = (stream: string) => stream.startsWith(noteStreamId(u, ''));
        const deps = pausingBefore(h.deps, noteEvent, async () => {
          const body = { userId: u, ...second };
          other = await outcome(h.run(createNote(h.deps, keyed(), body)));
        });
        const mine = await outcome(h.run(createNote(deps, keyed(), note(1))));
        expect(mine.error).to.equal(undefined);
        onlyFirst([mine, other!]);
        expect(await tagNames()).to.deep.equal(['t-1']);
        expect(await deviceNames()).to.deep.equal([]);
      });
    }
  });
});
