import { expect } from 'chai';
import { FailedPrecondition, InvalidArgument, NotFound } from '../../commands/shared/errors.js';
import { type TagEvent, tagDecider, tagPalette } from '../../commands/tag/index.js';
import { deciderSpec } from '../support/decider.js';

const given = deciderSpec(tagDecider);
const create = {
  type: 'CreateTag' as const,
  data: { tagId: 't1', userId: 'u1', name: ' Work ', color: 3, parentId: null, parent: null },
};
const created: TagEvent = {
  type: 'NoteTagCreated',
  data: { tagId: 't1', userId: 'u1', name: 'Work', color: 3, parentId: null },
};
const activeParent = { status: 'active' as const, ancestorIds: [] };

describe('Tag decider', () => {
  describe('When a tag is created', () => {
    it('records it with a trimmed name', () => {
      given([]).when(create).then([created]);
    });
    it('accepts colors 0 and 11 and rejects 12, -1 and 2.5', () => {
      // spec: "color | integer index | index into a fixed tag palette, not a hex value"
      expect(tagPalette).to.have.length(12);
      // the palette's `index` is what the OpenAPI description tells clients: it is the position
      expect(tagPalette.map((c) => c.index)).to.deep.equal([...tagPalette.keys()]);
      for (const color of [0, 11]) {
        expect(
          tagDecider.decide(
            { ...create, data: { ...create.data, color } },
            tagDecider.initialState(),
          ),
        ).to.have.length(1);
      }
      for (const color of [12, -1, 2.5]) {
        given([])
          .when({ ...create, data: { ...create.data, color } })
          .thenThrows(InvalidArgument, /color/);
      }
    });
    it('rejects an empty name', () => {
      given([])
        .when({ ...create, data: { ...create.data, name: '   ' } })
        .thenThrows(InvalidArgument, /name/);
    });
    it('rejects a name that shows as nothing or holds control characters', () => {
      // notes audit: tags named U+200B, NUL or with a line break were created (201)
      for (const [name, says] of [
        ['\u200b', /name must contain a visible character/],
        ['\u200b\ufeff \u2060', /name must contain a visible character/],
        ['\u0000', /name must not contain control characters/],
        ['two\nlines', /name must not contain control characters/],
      ] as const) {
        given([])
          .when({ ...create, data: { ...create.data, name } })
          .thenThrows(InvalidArgument, says);
      }
      // letters in any script and emoji are visible
      for (const name of ['Ünïcode', '日本', '🍎']) {
        given([])
          .when({ ...create, data: { ...create.data, name } })
          .then([{ ...created, data: { ...created.data, name } }]);
      }
    });
    it('requires the parent to exist and not be deleted', () => {
      const withParent = (
        parent: typeof activeParent | { status: 'absent' | 'deleted'; ancestorIds: string[] },
      ) => ({
        ...create,
        data: { ...create.data, parentId: 'p', parent },
      });
      given([])
        .when(withParent({ status: 'absent', ancestorIds: [] }))
        .thenThrows(InvalidArgument, /parent tag not found/);
      given([])
        .when(withParent({ status: 'deleted', ancestorIds: [] }))
        .thenThrows(InvalidArgument, /deleted/);
      given([])
        .when(withParent(activeParent))
        .then([{ ...created, data: { ...created.data, parentId: 'p' } }]);
    });
  });

  describe('When a tag is moved under another tag', () => {
    it('rejects making the tag its own parent', () => {
      given([created])
        .when({ type: 'UpdateTag', data: { parentId: 't1', parent: activeParent } })
        .thenThrows(InvalidArgument, /own parent/);
    });
    it('rejects a parent whose ancestors include the tag (a cycle)', () => {
      // t1 > c1 > c2; moving t1 under c2 would close the loop
      given([created])
        .when({
          type: 'UpdateTag',
          data: { parentId: 'c2', parent: { status: 'active', ancestorIds: ['c1', 't1'] } },
        })
        .thenThrows(InvalidArgument, /cycle/);
    });
    it('accepts a parent in another branch', () => {
      given([created])
        .when({
          type: 'UpdateTag',
          data: { parentId: 'x', parent: { status: 'active', ancestorIds: ['root'] } },
        })
        .then([{ type: 'NoteTagUpdated', data: { name: 'Work', color: 3, parentId: 'x' } }]);
    });
  });

  describe('When a tag is renamed, recoloured or deleted', () => {
    it('records all fields after the change and nothing for a no-op', () => {
      given([created])
        .when({ type: 'UpdateTag', data: { name: 'Job', color: null } })
        .then([{ type: 'NoteTagUpdated', data: { name: 'Job', color: null, parentId: null } }]);
      given([created])
        .when({ type: 'UpdateTag', data: { name: 'Work' } })
        .then([]);
    });
    it('soft-deletes once and refuses updates afterwards', () => {
      given([created])
        .when({ type: 'DeleteTag', data: {} })
        .then([{ type: 'NoteTagDeleted', data: {} }]);
      const deleted: TagEvent = { type: 'NoteTagDeleted', data: {} };
      given([created, deleted]).when({ type: 'DeleteTag', data: {} }).then([]);
      given([created, deleted])
        .when({ type: 'UpdateTag', data: { name: 'x' } })
        .thenThrows(FailedPrecondition);
    });
    it('answers not found for an unknown tag', () => {
      given([]).when({ type: 'DeleteTag', data: {} }).thenThrows(NotFound);
      given([])
        .when({ type: 'UpdateTag', data: { name: 'x' } })
        .thenThrows(NotFound);
    });
  });
});
