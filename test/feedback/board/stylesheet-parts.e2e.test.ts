/**
 * board.css is kept in parts named for what they hold (src/feedback/board/assets/board/: the
 * theme, the layout, forms, items, stacked marks, the roadmap and changelog, notices, forced
 * colours) and served as the one stylesheet it was: one request for a visitor, the parts joined in
 * cascade order (assets.ts). A part added to the folder but not to the list would be left out of
 * what visitors get without a word: each is served, once, in the list's order.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { expect } from 'chai';
import * as served from '../../../src/feedback/board/assets.js';
import { type BoardWorld, startBoardWorld } from './support.js';

const assets = new URL('../../../src/feedback/board/assets/', import.meta.url);

describe('The board stylesheet, kept in parts (e2e)', () => {
  let world: BoardWorld;
  before(async () => {
    world = await startBoardWorld();
  });
  after(() => world.fb.stop());

  it('serves every part of board.css, once, joined in cascade order, as one file', async () => {
    const BOARD_CSS_PARTS = (served as { BOARD_CSS_PARTS?: string[] }).BOARD_CSS_PARTS ?? [];
    expect(BOARD_CSS_PARTS, "assets.ts lists board.css's parts").to.not.deep.equal([]);
    const inFolder = readdirSync(new URL('board/', assets)).filter((name) => name.endsWith('.css'));
    expect([...BOARD_CSS_PARTS].sort()).to.deep.equal(
      inFolder.map((name) => `board/${name}`).sort(),
    );
    // the colours every rule uses come first; forced colours last, each overriding a rule before
    expect(BOARD_CSS_PARTS[0]).to.equal('board/theme.css');
    expect(BOARD_CSS_PARTS.at(-1)).to.equal('board/forced-colours.css');
    const res = await fetch(new URL('/_board/board.css', world.fb.url));
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/css; charset=utf-8');
    const joined = BOARD_CSS_PARTS.map((part) => readFileSync(new URL(part, assets), 'utf8')).join(
      '',
    );
    expect(await res.text()).to.equal(joined);
  });
});
