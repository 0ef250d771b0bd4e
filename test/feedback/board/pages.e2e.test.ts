/**
 * The board's pages over real HTTP (issue 12 item 1): what the API wrote shows on the board,
 * item, roadmap and changelog pages and in the Atom feed (parsed by a feed parser); `via` is
 * never shown; a merged item redirects to its survivor; a private product answers the same 404
 * as an unknown one on every page, the capture endpoint, the widget and the feed, and comes back
 * when it is public again; anonymous pages carry an ETag and answer 304.
 */
import { parseFeed } from '@rowanmanning/feed-parser';
import { expect } from 'chai';
import type { Api } from '../support/harness.js';
import { FORM_MAX_AGE_MS } from '../../../src/feedback/board/tokens.js';
import { BoardVisitor, type BoardWorld, field, fillTime, startBoardWorld } from './support.js';

const items = '/v1/workspaces/acme-co/products/APP/items';

describe('The public board pages (e2e)', () => {
  let world: BoardWorld;
  let owner: Api;
  let visitor: BoardVisitor;
  const file = async (title: string, body: string, via?: string) =>
    (await world.fb.submit(world.ws, 'APP', { title, body, ...(via ? { via } : {}) })).itemKey;

  before(async () => {
    world = await startBoardWorld();
    owner = world.fb.api(world.owner.token);
    visitor = new BoardVisitor(world.fb.url);
  });
  after(() => world.fb.stop());

  describe('When items exist', () => {
    it('lists them with status, +1 and reply counts, sorted, filtered and paged, and never shows via', async () => {
      const a = await file('Dark mode', 'A night theme please', 'pat:secret-token-name');
      const b = await file('Export to CSV', 'Spreadsheets');
      await owner.post(`${items}/${b}/status`, { status: 'planned' });
      const page = await visitor.get(world.boardPath);
      expect(page.status).to.equal(200);
      expect(page.headers.get('content-type')).to.match(/^text\/html/);
      expect(page.text).to.include('Dark mode').and.include('Export to CSV');
      expect(page.text).to.include('Planned');
      // spec: "the public page never shows the field"
      expect(page.text).to.not.include('secret-token-name');
      // an unknown status (even one named like an object's own property) means any status
      const odd = await visitor.get(`${world.boardPath}?status=toString&sort=constructor`);
      expect(odd.status).to.equal(200);
      expect(odd.text).to.include('Dark mode').and.include('Export to CSV');
      const planned = await visitor.get(`${world.boardPath}?status=planned`);
      expect(planned.text).to.include('Export to CSV').and.not.include('Dark mode');
      const newest = await visitor.get(`${world.boardPath}?sort=new`);
      expect(newest.text.indexOf('Export to CSV')).to.be.lessThan(newest.text.indexOf('Dark mode'));
      const item = await visitor.get(`${world.boardPath}/items/${a}`);
      expect(item.text).to.include('A night theme please').and.not.include('secret-token-name');
    });

    it('finds items by meaning and words with the search_items ranking', async () => {
      await file('Keyboard shortcuts', 'Let me use hotkeys for everything');
      const found = await visitor.get(`${world.boardPath}?q=hotkeys`);
      expect(found.status).to.equal(200);
      // best first: the item holding the word leads (how far down the list goes is the
      // encoder's and the threshold's business, measured in bench:search)
      const titles = [...found.text.matchAll(/class="title"[^>]*>([^<]*)</g)].map((m) => m[1]);
      expect(titles[0]).to.equal('Keyboard shortcuts');
      const suggest = await visitor.get(`${world.boardPath}/suggest?q=keyboard%20shortcut`);
      const suggested = JSON.parse(suggest.text).items.map((i: { title: string }) => i.title);
      expect(suggested).to.include('Keyboard shortcuts');
    });

    it('pages 50 items at a time', async () => {
      // a board of one page has no "Pages" navigation: an empty landmark is read out for nothing
      const one = await visitor.get(world.boardPath);
      expect(one.text).to.not.include('aria-label="Pages"');
      for (let i = 0; i < 50; i++) await file(`Filler ${i}`, `filler body ${i}`);
      const first = await visitor.get(world.boardPath);
      expect(first.text).to.include('rel="next"');
      const second = await visitor.get(`${world.boardPath}?page=2`);
      expect(second.text).to.include('rel="prev"');
      const count = (html: string) => (html.match(/class="item"/g) ?? []).length;
      expect(count(first.text)).to.equal(50);
      expect(count(second.text)).to.be.greaterThan(0);
      const past = await visitor.get(`${world.boardPath}?page=9`);
      expect(past.text).to.include('No more items').and.not.include('No feedback here yet');
      // the title names what the page lists: a later page, a search, a filter are told apart
      // from the board in the tab, the history and a screen reader's list of windows
      const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];
      expect(titleOf(first.text)).to.equal('\u2068Acme App\u2069 feedback');
      expect(titleOf(second.text)).to.equal('page 2 · \u2068Acme App\u2069 feedback');
      const searched = await visitor.get(`${world.boardPath}?q=filler&status=new&page=2`);
      expect(titleOf(searched.text)).to.equal(
        '“\u2068filler\u2069”, New, page 2 · \u2068Acme App\u2069 feedback',
      );
    });

    it('answers a page number past the 10,000th as a page past the last one, not as page 1', async () => {
      // README: "`?page=` (50 a page)"; page 9 of two pages says "No more items", but past the
      // board's last readable page (10,000) the number was dropped and page 1 shown under it,
      // while what is no page number at all means page 1, as an unknown sort or status means
      // the default
      const count = (html: string) => (html.match(/class="item"/g) ?? []).length;
      for (const page of ['10001', '99999999']) {
        const past = await visitor.get(`${world.boardPath}?page=${page}`);
        expect(past.status, page).to.equal(200);
        expect(past.text, page).to.include('No more items');
        expect(count(past.text), page).to.equal(0);
        expect(past.text, page).to.not.include('rel="next"');
      }
      for (const page of ['abc', '0', '-3']) {
        const first = await visitor.get(`${world.boardPath}?page=${page}`);
        expect(count(first.text), page).to.equal(50);
      }
    });

    it('pages a search 50 at a time too: page 2 holds the next closest, not page 1 again', async () => {
      // README: "`?q=` (the `search_items` ranking …), `?page=` (50 a page)"; with the 50
      // fillers above, 55 items hold the word "filler"
      for (let i = 50; i < 55; i++) await file(`Filler ${i}`, `filler body ${i}`);
      // the ranking is stable once every item has its vector (until then an item's words find it
      // and its meaning joins in as soon as the embedder has it: pages could shift in between)
      for (let wait = 0; ; wait++) {
        const ready = (await (await fetch(`${world.fb.url}/readyz`)).json()) as {
          search?: { indexes?: { items?: { pending: number } } };
        };
        if (ready.search?.indexes?.items?.pending === 0) break;
        expect(wait, 'the items embedded within 30 s').to.be.below(300);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const titlesOf = (html: string) =>
        [...html.matchAll(/class="title"[^>]*>([^<]*)</g)].map((m) => m[1]!);
      const first = await visitor.get(`${world.boardPath}?q=filler`);
      const second = await visitor.get(`${world.boardPath}?q=filler&page=2`);
      const one = titlesOf(first.text);
      const two = titlesOf(second.text);
      expect(one).to.have.length(50);
      expect(first.text).to.include('rel="next"');
      expect(two.length).to.be.greaterThan(0);
      expect(two.filter((title) => one.includes(title))).to.deep.equal([]);
      // every filler is reachable from the search
      const fillers = [...one, ...two].filter((title) => title.startsWith('Filler '));
      expect(new Set(fillers).size).to.equal(55);
    });

    it('answers anonymous visitors with an ETag, 304 while nothing changed, and a new page once something did', async () => {
      // issue 12: "`ETag`/`Cache-Control` for anonymous reads"
      const first = await visitor.get(world.boardPath);
      const etag = first.headers.get('etag')!;
      expect(etag).to.match(/^W\//);
      expect(first.headers.get('cache-control')).to.equal('no-cache');
      expect((await visitor.get(world.boardPath, { 'if-none-match': etag })).status).to.equal(304);
      await file('Something new', 'changes the board');
      const after = await visitor.get(world.boardPath, { 'if-none-match': etag });
      expect(after.status).to.equal(200);
      expect(after.text).to.include('Something new');
    });

    it('never answers 304 for a page whose form token has gone stale while the board stayed quiet', async () => {
      // "a 304 is never answered for a page whose embedded token would be refused before the
      // client could use it"; README: "a signed form token refused when sent ... after 2 days"
      const fresh = new BoardVisitor(world.fb.url);
      const first = await fresh.get(world.boardPath);
      const etag = first.headers.get('etag')!;
      world.fb.clock.advance(FORM_MAX_AGE_MS + 60_000);
      const again = await fresh.get(world.boardPath, { 'if-none-match': etag });
      expect(again.status).to.equal(200);
      expect(again.headers.get('etag')).to.not.equal(etag);
      fillTime(world);
      const send = (page: string) =>
        fresh.post(
          '/capture/acme-co/APP',
          { formToken: field(page, 'formToken'), body: 'Filed after a quiet spell' },
          { json: true },
        );
      expect((await send(first.text)).status).to.equal(400);
      expect((await send(again.text)).status).to.equal(200);
    });

    it('serves pages with a strict CSP: no inline script or style, no framing', async () => {
      // issue 12 item 6: "strict CSP on pages"
      const page = await visitor.get(world.boardPath);
      const csp = page.headers.get('content-security-policy')!;
      expect(csp).to.include("default-src 'none'").and.include("script-src 'self'");
      expect(csp).to.include("frame-ancestors 'none'").and.not.include('unsafe-inline');
      expect(page.text).to.not.match(/<script>|<style>| on[a-z]+="/);
    });

    it('shows a title as it was written on the page kept for visitors without a cookie', async () => {
      // README: a cached page is "the same for everyone" but for its form token, put in fresh on
      // each answer; the place it goes must be one no submitter can write: a title holding the
      // marker the cache once used printed the viewer's form token in its place
      const title = 'Rename form-token-slot-3f9c2a in the export';
      await file(title, 'A title that names an internal marker');
      for (const path of [world.boardPath, `${world.boardPath}?sort=new`]) {
        const page = await new BoardVisitor(world.fb.url).get(path);
        expect(page.headers.get('etag'), path).to.be.a('string');
        expect(page.text, path).to.include(title);
      }
    });
  });

  describe('When a maker replies and merges', () => {
    it('shows the reply on the item page at once, marked, and threads answers under it', async () => {
      // spec: "A reply is public immediately, on the item's page and in the feed"
      const key = await file('Slow sync', 'Sync takes minutes');
      const reply = await owner.post(`${items}/${key}/replies`, { body: 'Looking into it now.' });
      expect(reply.status).to.equal(200);
      await owner.post(`${items}/${key}/replies`, {
        body: 'Fixed in 2.1',
        parentId: reply.body.replyId,
      });
      const page = await visitor.get(`${world.boardPath}/items/${key}`);
      expect(page.text).to.include('Looking into it now.').and.include('Fixed in 2.1');
      expect(page.text).to.include('reply-maker').and.include('Team');
      expect(page.text).to.match(/class="thread nested"/);
    });

    it('redirects a merged item to its survivor, to the line there that names it', async () => {
      // issue 12: "A merged item's page redirects to its survivor"; a visitor following a link
      // to their own idea is told where it went, not shown another item without a word
      const survivor = await file('Dark theme', 'dark please');
      const merged = await file('Night <i>mode</i>', 'night please');
      expect(
        (await owner.post(`${items}/${survivor}/merge`, { mergedKeys: [merged] })).status,
      ).to.equal(200);
      const res = await visitor.get(`${world.boardPath}/items/${merged}`);
      expect(res.status).to.equal(302);
      expect(res.headers.get('location')).to.equal(
        `${world.fb.url}${world.boardPath}/items/${survivor}#merged-${merged}`,
      );
      const page = await visitor.get(`${world.boardPath}/items/${survivor}`);
      expect(page.text).to.include('Also asked as');
      const at = page.text.indexOf('Also asked as');
      expect(page.text, page.text.slice(at, at + 500)).to.match(
        new RegExp(
          `<li id="merged-${merged}"><span dir="auto">Night &lt;i>mode&lt;/i></span> <span[^>]*>· ${merged}`,
        ),
      );
    });
  });

  describe('When items are planned and shipped and a changelog entry is published', () => {
    it('shows them on the roadmap and changelog pages, in the Atom feed and in list_public_changelog', async () => {
      const planned = await file('Calendar view', 'see items by date');
      const shipped = await file('Bulk edit', 'edit many <b>at once</b>');
      await owner.post(`${items}/${planned}/status`, { status: 'planned' });
      await owner.post(`${items}/${shipped}/status`, { status: 'shipped' });
      const published = await owner.post(`${items}/${shipped}/changelog`, {
        title: 'Bulk edit is here',
        body: 'Select many items & edit <them> together.',
        publish: true,
      });
      expect(published.status, JSON.stringify(published.body)).to.equal(200);
      // the board's count, as the +1 button reads it out: "1 vote", "0 votes" (was "1 votes")
      await visitor.post(`${world.boardPath}/items/${planned}/plus-one`, { back: 'item' });
      const roadmap = await visitor.get(`${world.boardPath}/roadmap`);
      const spoken = (title: string) =>
        new RegExp(
          `>${title}</a> <span class="muted"><span aria-hidden="true">▲</span> (\\d+)<span class="visually-hidden">([^<]*)<`,
        )
          .exec(roadmap.text)
          ?.slice(1)
          .join('');
      expect(spoken('Calendar view')).to.equal('1 vote');
      expect(spoken('Bulk edit')).to.equal('0 votes');
      const plannedAt = roadmap.text.indexOf('Calendar view');
      expect(plannedAt).to.be.greaterThan(roadmap.text.indexOf('id="col-planned"'));
      expect(roadmap.text.indexOf('Bulk edit')).to.be.greaterThan(
        roadmap.text.indexOf('id="col-shipped"'),
      );
      const changelog = await visitor.get(`${world.boardPath}/changelog`);
      expect(changelog.text).to.include('Bulk edit is here');
      // user text is escaped, never markup
      expect(changelog.text).to.include('&lt;them>').and.not.include('<them>');
      const atom = await visitor.get(`${world.boardPath}/changelog.atom`);
      expect(atom.headers.get('content-type')).to.match(/^application\/atom\+xml/);
      const feed = parseFeed(atom.text);
      expect(feed.title).to.equal('\u2068Acme App\u2069 changelog');
      expect(feed.items.map((i) => i.title)).to.include('Bulk edit is here');
      // the feed carries HTML content: the text is escaped inside it, never raw markup
      expect(atom.text).to.include('&lt;them&gt;').and.not.include('<them>');
      // the entry links its item named by key and title, as the changelog page does (the title
      // isolated: atom.ts)
      const entry = feed.items.find((i) => i.title === 'Bulk edit is here');
      expect(entry?.content).to.include(
        `<a href="${world.fb.url}${world.boardPath}/items/${shipped}">${shipped} \u2068Bulk edit\u2069</a>`,
      );
      const api = await owner.get('/v1/public/acme-co/APP/changelog');
      expect(api.status).to.equal(200);
      expect(api.body.items.map((e: { title: string }) => e.title)).to.include('Bulk edit is here');
      expect(api.body.nextCursor).to.equal(null);
    });
  });

  describe('When the changelog holds more than a page of entries', () => {
    it('links an older page to the older entries and back to the newest', async () => {
      // 20 entries a page, newest first, keyed by the last entry shown: the first page is the
      // only "newer" one a later page can name
      const href = (html: string, text: string) =>
        new RegExp(`<a href="([^"]+)"[^>]*>${text}</a>`).exec(html)?.[1]?.replaceAll('&amp;', '&');
      for (let i = 0; i < 21; i++) {
        const key = await file(`Shipped ${i}`, `shipped body ${i}`);
        await owner.post(`${items}/${key}/status`, { status: 'shipped' });
        const res = await owner.post(`${items}/${key}/changelog`, { publish: true });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
      }
      const first = await visitor.get(`${world.boardPath}/changelog`);
      expect(href(first.text, 'Newest entries'), 'the first page').to.equal(undefined);
      const older = href(first.text, 'Older entries');
      expect(older).to.be.a('string');
      const second = await visitor.get(new URL(older!).pathname + new URL(older!).search);
      expect(second.status).to.equal(200);
      expect(href(second.text, 'Newest entries')).to.equal(
        `${world.fb.url}${world.boardPath}/changelog`,
      );
    });
  });

  describe('When a product is renamed to a name with markup characters', () => {
    it('puts the name in the Atom feed so a feed parser reads it back exactly', async () => {
      // README: "user text is escaped, never markup" -- escaped once: the feed's title is text
      const name = 'Web <b>app</b> & "x"';
      await world.fb.createProduct(world.ws, { key: 'WEB', name: 'Web', visibility: 'public' });
      const renamed = await owner.patch('/v1/workspaces/acme-co/products/WEB', { name });
      expect(renamed.status).to.equal(200);
      const atom = await visitor.get('/acme-co/WEB/changelog.atom');
      const feed = parseFeed(atom.text);
      expect(feed.title).to.equal(`\u2068${name}\u2069 changelog`);
      expect(feed.description).to.equal(`What shipped in \u2068${name}\u2069`);
      expect(atom.text).to.not.include('&amp;lt;');
    });
  });

  describe('When the product turns private', () => {
    it('answers the same 404 as an unknown product everywhere, and the board comes back when public again', async () => {
      // spec: "the product's page, roadmap and changelog answer 404 to everyone outside the
      // workspace; submissions are refused; the embeddable widget ... ha[s] nothing to reach"
      const key = await file('Before private', 'still here after');
      const paths = (slug: string, product: string) => [
        `/${slug}/${product}`,
        `/${slug}/${product}/items/${key}`,
        `/${slug}/${product}/roadmap`,
        `/${slug}/${product}/changelog`,
        `/${slug}/${product}/changelog.atom`,
        `/capture/${slug}/${product}`,
      ];
      expect(
        (await owner.patch('/v1/workspaces/acme-co/products/APP', { visibility: 'private' }))
          .status,
      ).to.equal(200);
      for (const [priv, unknown] of paths('acme-co', 'APP').map((p, i) => [
        p,
        paths('acme-co', 'NOPE')[i]!,
      ])) {
        const a = await visitor.get(priv!);
        const b = await visitor.get(unknown);
        expect(a.status, priv).to.equal(404);
        expect(a.text, priv).to.equal(b.text);
      }
      const post = await visitor.post(
        '/capture/acme-co/APP',
        { body: 'refused', formToken: 'x' },
        { json: true },
      );
      expect(post.status).to.equal(404);
      expect((await owner.get('/v1/public/acme-co/APP/changelog')).status).to.equal(200);
      expect(
        (await owner.patch('/v1/workspaces/acme-co/products/APP', { visibility: 'public' })).status,
      ).to.equal(200);
      const back = await visitor.get(`/acme-co/APP/items/${key}`);
      expect(back.status).to.equal(200);
      expect(back.text).to.include('still here after');
    });
  });
});
