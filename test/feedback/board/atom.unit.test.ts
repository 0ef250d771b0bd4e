/**
 * The changelog feed stays well-formed XML whatever was filed: a NUL (or any character XML 1.0
 * forbids) in an entry made the whole feed unreadable to strict feed readers (security audit:
 * anonymous input could take the changelog feed down).
 */
import { parseFeed } from '@rowanmanning/feed-parser';
import { expect } from 'chai';
import { changelogAtom } from '../../../src/feedback/board/atom.js';

describe('changelog Atom feed', () => {
  it('replaces characters XML forbids, so the feed still parses', () => {
    const at = Date.UTC(2026, 10, 26);
    const xml = changelogAtom({
      productName: 'App\u0001',
      publisher: 'Acme',
      since: at,
      boardUrl: 'https://board.example/acme-co/APP',
      entries: [
        {
          id: 'e1',
          productId: 'APP',
          itemIds: ['APP-1'],
          title: 'Dark mode\u0000',
          body: 'Night theme\u000b is here \ud800 and 😀 stays',
          requestedByNames: [],
          requestedByCount: 0,
          publishedAt: at,
          updatedAt: at,
        },
      ],
    });
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters XML forbids
    expect(xml).not.to.match(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
    expect(xml).to.contain('😀');
    const feed = parseFeed(xml);
    expect(feed.items.map((item) => item.title)).to.deep.equal(['Dark mode\ufffd']);
  });
});
