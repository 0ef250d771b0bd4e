/**
 * Tag writes interleaved with each other, deterministically: one request pauses before a write
 * (its first, or its tag's own event) while another runs to its end. Whatever the interleaving,
 * the result must be one the requests could have had one after the other.
 */
import { expect } from 'chai';
import { AlreadyExists, InvalidArgument } from '../../commands/shared/errors.js';
import { tagStreamId } from '../../commands/tag/index.js';
import { createNote, createTag, deleteTag, updateTag } from '../../src/notes/actions/index.js';
import {
  fakePlaces,
  firstWrite,
  type NotesHarness,
  type Outcome,
  outcome,
  pausingBefore,
  startNotes,
} from './harness.js';

describe('Tag writes racing each other', () => {
  let h: NotesHarness;
  let u: string;
  let users = 0;
  before(async () => {
    h = await startNotes({ places: fakePlaces() });
  });
  after(async () => h.stop());
  beforeEach(() => {
    u = `racer-${++users}`;
  });
  const create = async (name: string, parentId: string | null = null) =>
    (await h.run(createTag(h.deps, h.ctx(u), { userId: u, name, parentId }))).tag.id;
  /** pause before the tag's own event (the rename, move or create itself) */
  const tagEvent = (tagId: string) => (stream: string) => stream === tagStreamId(u, tagId);
  const named = async (name: string) =>
    (await h.queries.listTags(u)).filter((t) => t.name.toLowerCase() === name);
  const oneRefused = (outcomes: Outcome<unknown>[], refusal: new (m: string) => Error) => {
    expect(
      outcomes.filter((o) => o.error === undefined),
      'one succeeds',
    ).to.have.length(1);
    const error = outcomes.find((o) => o.error)?.error;
    expect(error, String(error)).to.be.instanceOf(refusal);
    return error!;
  };

  for (const [where, pause] of [
    ['before it writes anything', () => firstWrite],
    ['just before its tag event', tagEvent],
  ] as const) {
    describe(`When a request pauses ${where} while another gives the same name`, () => {
      it('gives the name to one of two renames; the other is refused', async () => {
        // sequentially the second rename gets 409 'a tag named "…" already exists'
        const [a, b] = [await create('alpha'), await create('beta')];
        let other: Outcome<unknown> | undefined;
        const deps = pausingBefore(h.deps, pause(a), async () => {
          other = await outcome(
            h.run(updateTag(h.deps, h.ctx(u), { userId: u, tagId: b, name: 'dup' })),
          );
        });
        const mine = await outcome(
          h.run(updateTag(deps, h.ctx(u), { userId: u, tagId: a, name: 'Dup' })),
        );
        oneRefused([mine, other!], AlreadyExists);
        expect(await named('dup')).to.have.length(1);
      });

      it('gives the name to one of a rename and a create', async () => {
        const a = await create('alpha');
        let other: Outcome<unknown> | undefined;
        const deps = pausingBefore(h.deps, pause(a), async () => {
          other = await outcome(h.run(createTag(h.deps, h.ctx(u), { userId: u, name: 'dup' })));
        });
        const mine = await outcome(
          h.run(updateTag(deps, h.ctx(u), { userId: u, tagId: a, name: 'dup' })),
        );
        oneRefused([mine, other!], AlreadyExists);
        expect(await named('dup')).to.have.length(1);
      });

      it('gives the name to one of a create and a rename', async () => {
        const b = await create('beta');
        let other: Outcome<unknown> | undefined;
        const creating = (stream: string) => stream.startsWith('notetag-');
        const deps = pausingBefore(
          h.deps,
          where.startsWith('before') ? firstWrite : creating,
          async () => {
            other = await outcome(
              h.run(updateTag(h.deps, h.ctx(u), { userId: u, tagId: b, name: 'dup' })),
            );
          },
        );
        const mine = await outcome(h.run(createTag(deps, h.ctx(u), { userId: u, name: 'DUP' })));
        oneRefused([mine, other!], AlreadyExists);
        expect(await named('dup')).to.have.length(1);
      });
    });
  }

  describe('When a note names a tag while another tag is renamed to that name', () => {
    it('uses the renamed tag instead of making a second one of that name', async () => {
      // spec: "tags | on create: tag names (tags that do not exist are created)"
      const b = await create('beta');
      const deps = pausingBefore(h.deps, firstWrite, () =>
        h.run(updateTag(h.deps, h.ctx(u), { userId: u, tagId: b, name: 'dup' })),
      );
      const { note } = await h.run(
        createNote(deps, h.ctx(u), { userId: u, content: 'x', tags: ['dup'] }),
      );
      expect(note.tags).to.deep.equal([b]);
      expect(await named('dup')).to.have.length(1);
    });
  });

  describe('When two tags are moved under each other at once', () => {
    for (const [where, pause] of [
      ['before it writes anything', () => firstWrite],
      ['just before its tag event', tagEvent],
    ] as const) {
      it(`refuses one of them (one paused ${where}): no cycle`, async () => {
        // spec (issue): "parentId for nesting — parent must exist, belong to the user, and no cycles"
        const [p, q] = [await create('p'), await create('q')];
        let other: Outcome<unknown> | undefined;
        const deps = pausingBefore(h.deps, pause(p), async () => {
          other = await outcome(
            h.run(updateTag(h.deps, h.ctx(u), { userId: u, tagId: q, parentId: p })),
          );
        });
        const mine = await outcome(
          h.run(updateTag(deps, h.ctx(u), { userId: u, tagId: p, parentId: q })),
        );
        expect(oneRefused([mine, other!], InvalidArgument).message).to.match(/cycle/);
        const parents = [
          (await h.queries.getTag(u, p)).parentId,
          (await h.queries.getTag(u, q)).parentId,
        ];
        expect(parents.filter((x) => x !== null)).to.have.length(1);
      });
    }
  });

  describe('When a tag is deleted while a tag is placed under it', () => {
    it('refuses a move whose check came before the delete and whose write after', async () => {
      // sequentially: DELETE f, then PUT g {parentId: f} → 400 "parent tag is deleted"
      const [f, g] = [await create('f'), await create('g')];
      const deps = pausingBefore(h.deps, firstWrite, () =>
        h.run(deleteTag(h.deps, h.ctx(u), { userId: u, tagId: f })),
      );
      const move = await outcome(
        h.run(updateTag(deps, h.ctx(u), { userId: u, tagId: g, parentId: f })),
      );
      expect(move.error).to.be.instanceOf(InvalidArgument);
      expect(move.error?.message).to.match(/deleted/);
      expect((await h.queries.getTag(u, g)).parentId).to.equal(null);
    });

    it('refuses a create under it the same way', async () => {
      const f = await create('f');
      const deps = pausingBefore(h.deps, firstWrite, () =>
        h.run(deleteTag(h.deps, h.ctx(u), { userId: u, tagId: f })),
      );
      const made = await outcome(
        h.run(createTag(deps, h.ctx(u), { userId: u, name: 'child', parentId: f })),
      );
      expect(made.error?.message).to.match(/parent tag is deleted/);
      expect(await named('child')).to.deep.equal([]);
    });

    it('lets a move already ordered before the delete land, as PUT then DELETE would', async () => {
      // sequentially: PUT g {parentId: f}, then DELETE f → g moves up to f's parent p, as the
      // children of a deleted tag do (README: "they move up to its parent"); g at the top level
      // would mean the move was lost
      const p = await create('p');
      const [f, g] = [await create('f', p), await create('g')];
      const deps = pausingBefore(h.deps, tagEvent(g), () =>
        h.run(deleteTag(h.deps, h.ctx(u), { userId: u, tagId: f })),
      );
      await h.run(updateTag(deps, h.ctx(u), { userId: u, tagId: g, parentId: f }));
      expect((await h.queries.getTag(u, g)).parentId).to.equal(p);
      expect((await h.queries.getTag(u, f)).deletedAt).to.be.a('number');
    });
  });
});
