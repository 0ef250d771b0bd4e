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
      itemTitles: new Map(),
    });
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters XML forbids
    expect(xml).not.to.match(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
    expect(xml).to.contain('😀');
    const feed = parseFeed(xml);
    expect(feed.items.map((item) => item.title)).to.deep.equal(['Dark mode\ufffd']);
  });

  it("names each entry's items by key and title, as the changelog page does", () => {
    // a bare "APP-1, APP-2" in a feed reader is only codes: each link says what it leads to;
    // a key whose item the read model has no title for still links, by its key
    const at = Date.UTC(2026, 10, 26);
    const boardUrl = 'https://board.example/acme-co/APP';
    const xml = changelogAtom({
      productName: 'App',
      publisher: 'Acme',
      since: at,
      boardUrl,
      entries: [
        {
          id: 'e1',
          productId: 'APP',
          itemIds: ['APP-1', 'APP-2', 'APP-3'],
          title: 'Dark mode is here',
          body: 'Night theme',
          requestedByNames: [],
          requestedByCount: 0,
          publishedAt: at,
          updatedAt: at,
        },
      ],
      itemTitles: new Map([
        ['APP-1', 'Dark mode'],
        ['APP-2', 'Night <b>theme</b> & "more"'],
      ]),
    });
    // the entry's HTML as a feed reader receives it (the parser decodes its entities for us,
    // which would hide whether a title went out as markup)
    expect(parseFeed(xml).items).to.have.length(1);
    const html = /<content type="html"><!\[CDATA\[(.*?)\]\]><\/content>/s.exec(xml)?.[1] ?? '';
    const links = [...html.matchAll(/<a href="([^"]*)">([^<]*)<\/a>/g)].map(([, href, text]) => ({
      href,
      text,
    }));
    expect(links).to.deep.equal([
      { href: `${boardUrl}/items/APP-1`, text: 'APP-1 \u2068Dark mode\u2069' },
      // the title is text inside the HTML content: escaped once, never markup
      {
        href: `${boardUrl}/items/APP-2`,
        text: 'APP-2 \u2068Night &lt;b&gt;theme&lt;/b&gt; &amp; &quot;more&quot;\u2069',
      },
      { href: `${boardUrl}/items/APP-3`, text: 'APP-3' },
    ]);
  });

  it("isolates each linked item's title in the entry's content, so right-to-left titles move nothing", () => {
    // task: "Item links inside Atom feed entries are not isolated … links whose text is an item
    // title": "APP-1 <Hebrew>, APP-2 <Hebrew>" laid out in one run put the keys and the comma on
    // the wrong sides. Feed readers' sanitizers drop `<bdi>` (feedparser, Miniflux) and `dir`
    // (Miniflux): the isolate characters are text, which every one of them keeps.
    const at = Date.UTC(2026, 10, 26);
    const xml = changelogAtom({
      productName: 'App',
      publisher: 'Acme',
      since: at,
      boardUrl: 'https://board.example/acme-co/APP',
      entries: [
        {
          id: 'e1',
          productId: 'APP',
          itemIds: ['APP-1', 'APP-2'],
          title: 'Shipped',
          body: 'Both of them',
          requestedByNames: [],
          requestedByCount: 0,
          publishedAt: at,
          updatedAt: at,
        },
      ],
      itemTitles: new Map([
        ['APP-1', 'מצב כהה'],
        ['APP-2', 'ייצוא CSV'],
      ]),
    });
    // as a reader gets it: the feed parsed, the entry's HTML content
    const [entry] = parseFeed(xml).items;
    const texts = [...(entry?.content ?? '').matchAll(/<a [^>]*>([^<]*)<\/a>/g)].map(([, t]) => t);
    expect(texts).to.deep.equal(['APP-1 \u2068מצב כהה\u2069', 'APP-2 \u2068ייצוא CSV\u2069']);
  });
});
