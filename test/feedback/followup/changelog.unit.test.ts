import { expect } from 'chai';
import {
  type ChangelogEvent,
  type PublishChangelogEntry,
  changelogDecider,
} from '../../../commands/changelog/index.js';
import { InvalidArgument } from '../../../commands/shared/errors.js';
import { acknowledgment } from '../../../projections/changelog/render.js';
import { deciderSpec } from '../../support/decider.js';

const given = deciderSpec(changelogDecider);
const entry = {
  entryId: 'chg-ACME-1',
  workspaceId: 'w1',
  productKey: 'ACME',
  itemKey: 'ACME-1',
  title: 'Dark mode',
  body: 'Now in settings.',
  itemIds: ['ACME-1'],
  requestedByNames: ['Ada'],
  requestedByCount: 2,
};
const publish = (data: Partial<PublishChangelogEntry['data']> = {}): PublishChangelogEntry => ({
  type: 'PublishChangelogEntry',
  data: { ...entry, ...data },
});
const published: ChangelogEvent = { type: 'ChangelogEntryPublished', data: entry };

describe('Changelog entry decider', () => {
  describe('When nothing was published for the item', () => {
    it('publishes the entry', () => given([]).when(publish()).then([published]));
  });
  describe('When the same text is published again', () => {
    it('changes nothing', () => given([published]).when(publish()).then([]));
  });
  describe('When other text is published', () => {
    it('revises only what changed', () =>
      given([published])
        .when(publish({ title: 'Dark mode is here' }))
        .then([{ type: 'ChangelogEntryRevised', data: { title: 'Dark mode is here' } }]));
  });
  describe('When only who is behind the names differs', () => {
    // requestedBy is not shown: a republish whose shown text is the same changes nothing, and
    // one that changes the text brings the requesters as they are now with it
    const ada = [{ personId: 'p-ada', namedVia: ['ACME-1'] }, { personId: 'p-anon' }];
    const withAda: ChangelogEvent = {
      type: 'ChangelogEntryPublished',
      data: { ...entry, requestedBy: ada },
    };
    const now = [{ personId: 'p-ada2', namedVia: ['ACME-1'] }, { personId: 'p-anon' }];
    it('changes nothing when the shown text is the same', () =>
      given([withAda])
        .when(publish({ requestedBy: now }))
        .then([]));
    it('revises them with the text', () =>
      given([withAda])
        .when(publish({ requestedByCount: 3, requestedBy: [...now, { personId: 'p-new' }] }))
        .then([
          {
            type: 'ChangelogEntryRevised',
            data: { requestedByCount: 3, requestedBy: [...now, { personId: 'p-new' }] },
          },
        ]));
  });
  describe('When the title is blank', () => {
    it('refuses', () =>
      given([])
        .when(publish({ title: '  ' }))
        .thenThrows(InvalidArgument));
  });
  describe('When the body shows nothing (spaces, U+200B, U+FEFF)', () => {
    // README "Text": a body "must show something too"
    for (const body of ['  \n ', '\u200b\ufeff', ' \u00ad\u2060 ']) {
      it(`refuses ${JSON.stringify(body)}, first publish or revision`, () => {
        given([])
          .when(publish({ body }))
          .thenThrows(InvalidArgument, /visible character/);
        given([published])
          .when(publish({ body }))
          .thenThrows(InvalidArgument, /visible character/);
      });
    }
    it('publishes an empty body: spec "changelog `body` | 0 to 50000 chars", a title alone', () =>
      given([])
        .when(publish({ body: '' }))
        .then([{ type: 'ChangelogEntryPublished', data: { ...entry, body: '' } }]));
  });
});

describe('Changelog acknowledgment line', () => {
  it('names everyone when all have names', () => {
    expect(acknowledgment(['Ada'], 1)).to.equal('Requested by Ada.');
    expect(acknowledgment(['Ada', 'Bob', 'Cy'], 3)).to.equal('Requested by Ada, Bob and Cy.');
  });
  it('counts the unnamed', () => {
    expect(acknowledgment(['Ada'], 2)).to.equal('Requested by Ada and 1 other.');
    expect(acknowledgment([], 3)).to.equal('Requested by 3 people.');
  });
  it('names at most ten', () => {
    const names = Array.from({ length: 12 }, (_, i) => `P${i}`);
    expect(acknowledgment(names, 12)).to.match(/P9 and 2 others\.$/);
  });
});
