/**
 * Text someone typed, set into a page's <title> beside the board's own words, over real HTTP: a
 * <title> is plain text (no `dir`, no <bdi>), so a Hebrew or Arabic item title or product name
 * is held between U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE — else the
 * browser's tab shows "Acme App · " on the wrong side of a right-to-left title.
 */
import { parseFeed } from '@rowanmanning/feed-parser';
import { expect } from 'chai';
import { BoardVisitor, type BoardWorld, startBoardWorld } from './support.js';

const FSI = '\u2068';
const PDI = '\u2069';
const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];

describe('Right-to-left text in page titles (e2e)', () => {
  let world: BoardWorld;
  let visitor: BoardVisitor;

  before(async () => {
    world = await startBoardWorld();
    visitor = new BoardVisitor(world.fb.url);
    await world.fb.createProduct(world.ws, { key: 'ARB', name: 'تطبيق 2', visibility: 'public' });
  });
  after(() => world.fb.stop());

  it("isolates the item's title and the product's name in the item page's <title>", async () => {
    // task: "Isolate the visitor's text in the title (U+2068 … U+2069 around it)"
    const title = 'מצב כהה 3';
    const { itemKey } = await world.fb.submit(world.ws, 'APP', { title, body: 'בבקשה' });
    const page = await visitor.get(`${world.boardPath}/items/${itemKey}`);
    expect(page.status).to.equal(200);
    expect(titleOf(page.text)).to.equal(`${FSI}${title}${PDI} · ${FSI}Acme App${PDI}`);
  });

  it("isolates a right-to-left product's name and a search in the other pages' titles", async () => {
    const name = `${FSI}تطبيق 2${PDI}`;
    expect(titleOf((await visitor.get('/acme-co/ARB')).text)).to.equal(`${name} feedback`);
    expect(titleOf((await visitor.get('/acme-co/ARB/roadmap')).text)).to.equal(`${name} roadmap`);
    const changelog = await visitor.get('/acme-co/ARB/changelog');
    expect(titleOf(changelog.text)).to.equal(`${name} changelog`);
    const searched = await visitor.get('/acme-co/ARB?q=%D7%9E%D7%A6%D7%91%201');
    expect(titleOf(searched.text)).to.equal(`“${FSI}מצב 1${PDI}” · ${name} feedback`);
    // the feed's title is plain text beside the word "changelog" too (type="text")
    const feed = parseFeed((await visitor.get('/acme-co/ARB/changelog.atom')).text);
    expect(feed.title).to.equal(`${name} changelog`);
  });
});
