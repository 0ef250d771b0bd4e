import { expect } from 'chai';
import {
  type ItemCommand,
  type ItemFacts,
  itemDecider,
  peopleIn,
} from '../../../commands/item/index.js';
import { FailedPrecondition, InvalidArgument, NotFound } from '../../../commands/shared/errors.js';
import { deciderSpec } from '../../support/decider.js';
import { author, captured, plusOne, replied, statusChanged } from './fixtures.js';

const given = deciderSpec(itemDecider);
const capture = (title: string | null, body: string, extra: object = {}): ItemCommand => ({
  type: 'CaptureItem',
  data: { workspaceId: 'w1', productKey: 'ACME', number: 1, title, body, author, ...extra },
});

describe('When an item is captured', () => {
  it('records it with the given title and its key', () => {
    given([]).when(capture('Dark mode', 'Please add a dark mode')).then([captured()]);
  });
  it('derives the title from the opening of the body when left blank', () => {
    // spec: "when the submitter left it blank, derived from the opening of the body at capture"
    given([])
      .when(capture('  ', '\n  Night   theme please\nsecond line'))
      .thenState((s) => expect(s).to.include({ title: 'Night theme please' }));
    given([])
      .when(capture(null, `${'word '.repeat(40)}`))
      .thenState((s) => {
        const title = (s as { title: string }).title;
        expect(title.length).to.be.at.most(81);
        expect(title.endsWith('…')).to.equal(true);
      });
  });
  it('carries the via label only when there is one', () => {
    // spec: via is "absent (not empty) when the item was posted on the board's own page"
    const [labelled] = itemDecider.decide(
      capture('T', 'B', { via: 'pat:laptop' }),
      itemDecider.initialState(),
    );
    expect(labelled!.data).to.include({ via: 'pat:laptop' });
    const [event] = itemDecider.decide(capture('T', 'B'), itemDecider.initialState());
    expect(event!.data).to.not.have.property('via');
  });
  it('refuses an empty body and a second capture', () => {
    given([]).when(capture('T', '   ')).thenThrows(InvalidArgument);
    given([captured()]).when(capture('T', 'B')).thenThrows(FailedPrecondition);
  });
  it('refuses control characters and text that shows nothing, in the title and the body', () => {
    // MCP audit: a title of "\u200b\u200b" or "\u0000" and a body of "\u0000\u202e" were filed,
    // and the public board served a raw NUL byte and an item whose title showed nothing
    for (const [title, body, says] of [
      ['\u200b\u200b', 'B', /title must contain a visible character/],
      ['a\u0000b', 'B', /title must not contain control characters/],
      ['two\nlines', 'B', /title must not contain control characters/],
      ['T', '\u0000\u202e', /body must not contain control characters other than/],
      ['T', 'ring \u0007', /body must not contain control characters other than/],
      ['T', '\u200b \ufeff', /body must contain a visible character/],
    ] as const) {
      given([]).when(capture(title, body)).thenThrows(InvalidArgument, says);
    }
    // line breaks and tabs are prose; a derived title skips a first line that shows nothing
    given([])
      .when(capture(null, '\u200b\n\tIndented\r\nsecond line'))
      .thenState((s) => expect(s).to.include({ title: 'Indented' }));
  });
});

describe('When an item is edited', () => {
  it('records changed title, body and status in one command', () => {
    given([captured()])
      .when({ type: 'UpdateItem', data: { title: 'Night theme', body: 'x', status: 'planned' } })
      .then([
        { type: 'ItemEdited', data: { title: 'Night theme', body: 'x' } },
        statusChanged('new', 'planned'),
      ]);
  });
  it('appends nothing when nothing differs', () => {
    given([captured()])
      .when({ type: 'UpdateItem', data: { title: 'Dark mode' } })
      .then([]);
  });
  it('refuses a title past 500 characters', () => {
    given([captured()])
      .when({ type: 'UpdateItem', data: { title: 'x'.repeat(501) } })
      .thenThrows(InvalidArgument);
  });
  it('keeps a body of 50000 characters and refuses one past it', () => {
    // spec, update_item: "`body` (string 1 to 50000)"
    given([captured()])
      .when({ type: 'UpdateItem', data: { body: 'x'.repeat(50_000) } })
      .then([{ type: 'ItemEdited', data: { body: 'x'.repeat(50_000) } }]);
    given([captured()])
      .when({ type: 'UpdateItem', data: { body: 'x'.repeat(50_001) } })
      .thenThrows(InvalidArgument, /body/);
  });
  it('answers not found for an item that does not exist', () => {
    given([])
      .when({ type: 'UpdateItem', data: { title: 'x' } })
      .thenThrows(NotFound);
  });
});

describe('When an item status is changed', () => {
  const change = (status: 'planned' | 'new') =>
    ({ type: 'ChangeItemStatus', data: { status } }) as const;
  it('records the change from the current status', () => {
    given([captured()])
      .when(change('planned'))
      .then([statusChanged('new', 'planned')]);
  });
  it('is a no-op when the item already has that status', () => {
    // spec: "when the item already has that status, `changed` is false and the call is safe to repeat"
    given([captured(), statusChanged('new', 'planned')])
      .when(change('planned'))
      .then([]);
  });
});

describe('When an item is tagged', () => {
  const tag = (tagIds: string[]) => ({ type: 'TagItem', data: { tagIds } }) as const;
  it('replaces the whole set', () => {
    // spec rule 2: "tag_item replaces the whole tag set; it never adds to it"
    given([captured(), { type: 'ItemTagged', data: { tagIds: ['ui'] } }])
      .when(tag(['api', 'api']))
      .then([{ type: 'ItemTagged', data: { tagIds: ['api'] } }]);
  });
  it('refuses 21 tags and a tag of 61 characters', () => {
    given([captured()])
      .when(tag(Array.from({ length: 21 }, (_, i) => `t${i}`)))
      .thenThrows(InvalidArgument);
    given([captured()])
      .when(tag(['x'.repeat(61)]))
      .thenThrows(InvalidArgument);
  });
  it('refuses a tag that shows as nothing or holds control characters', () => {
    // feedback audit: "  ", "\u200b" and "a\u0000b" were stored as tags
    for (const [bad, says] of [
      ['  ', /each tag id must contain a visible character/],
      ['\u200b', /each tag id must contain a visible character/],
      ['a\u0000b', /each tag id must not contain control characters/],
    ] as const) {
      given([captured()])
        .when(tag(['ok', bad]))
        .thenThrows(InvalidArgument, says);
    }
  });
});

describe('When someone replies', () => {
  const reply = (replyId: string, parentId: string | null): ItemCommand => ({
    type: 'ReplyToItem',
    data: { ...(replied(replyId, 'p2').data as object), parentId } as never,
  });
  it('refuses a reply with control characters or nothing visible', () => {
    const body = (text: string): ItemCommand => ({
      type: 'ReplyToItem',
      data: { ...(replied('r1', 'p2').data as object), body: text, parentId: null } as never,
    });
    given([captured()])
      .when(body('a\u0000'))
      .thenThrows(InvalidArgument, /reply body must not contain control characters/);
    given([captured()])
      .when(body('\u200b'))
      .thenThrows(InvalidArgument, /reply body must contain a visible character/);
  });
  it('records the reply and makes a replying person a participant', () => {
    given([captured()])
      .when(reply('r1', null))
      .then([replied('r1', 'p2')]);
    given([captured()])
      .when(reply('r1', null))
      .thenState((s) =>
        expect(peopleIn((s as ItemFacts).roster)).to.deep.equal({ p1: 'submitted', p2: 'replied' }),
      );
  });
  it('threads under an existing reply and refuses an unknown parent', () => {
    given([captured(), replied('r1', 'p2')])
      .when(reply('r2', 'r1'))
      .thenState((s) => expect((s as ItemFacts).replyIds.toArray()).to.deep.equal(['r1', 'r2']));
    given([captured()]).when(reply('r2', 'nope')).thenThrows(NotFound);
  });
  it('appends nothing for a reply id it already has (retry)', () => {
    given([captured(), replied('r1', 'p2')])
      .when(reply('r1', null))
      .then([]);
  });
});

describe('When a person adds a +1', () => {
  const add = (personId: string) => ({ type: 'AddPlusOne', data: { personId } }) as const;
  it('records it once per person', () => {
    given([captured()])
      .when(add('p2'))
      .then([plusOne('p2')]);
    given([captured(), plusOne('p2')])
      .when(add('p2'))
      .then([]);
  });
  it("does not count the submitter's own +1", () => {
    given([captured()]).when(add('p1')).then([]);
  });
});
