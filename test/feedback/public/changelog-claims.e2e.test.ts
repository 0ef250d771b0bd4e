/**
 * list_public_changelog after the announced items changed, over real HTTP: a published entry is
 * kept as published, but the public changelog claims nothing that is no longer true.
 *  - Spec: "Transition to `shipped` makes the item eligible for ... draft_changelog_entry", and
 *    the roadmap shows what is shipped: an entry whose item left `shipped` is not listed (the
 *    board would contradict itself), and is listed again, as published, when it ships again.
 *    (The board's changelog page and Atom feed read the same query, changelogPage.)
 *  - unmerge_items "undoes merges exactly": a merged item given back is no longer answered, so
 *    it leaves the entry's `itemIds` and its part of the drafted "Also answers" paragraph.
 *  - merge_items: a merged item lives on in its survivor, whose status the board shows for the
 *    merged item's key; an entry announcing a merged item is listed while the survivor is shipped.
 *    Merges chain (A into B, then B into C): the item lives on in C, the end of the chain, where
 *    the board leads A and B; the entry follows C's status, not B's (B keeps the status it had).
 */
import { expect } from 'chai';
import { BoardVisitor } from '../board/support.js';
import type { Api } from '../support/harness.js';
import { type Board, item, startBoard } from '../triage/board.js';

const changelog = '/v1/public/acme-co/APP/changelog';

describe('list_public_changelog after the announced items changed (e2e)', () => {
  let board: Board;
  let owner: Api;
  let outsider: Api;

  before(async () => {
    board = await startBoard();
    owner = board.fb.api(board.owner.token);
    outsider = board.fb.api(board.outsider.token);
  });
  after(() => board.fb.stop());

  async function file(title: string): Promise<string> {
    const res = await outsider.post('/v1/public/acme-co/APP/feedback', {
      title,
      body: `${title}, please`,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.itemId;
  }
  async function post(path: string, body: unknown): Promise<void> {
    const res = await owner.post(path, body);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  }
  const entryOf = async (itemKey: string) => {
    const res = await outsider.get(changelog);
    expect(res.status).to.equal(200);
    return res.body.items.find((e: { id: string }) => e.id === `chg-${itemKey}`);
  };

  describe('When a merged item the entry also answers is unmerged', () => {
    it('leaves its item ids and its "Also answers" part; merged again, it is back', async () => {
      const survivor = await file('Dark mode');
      const first = await file('Night theme');
      const second = await file('Black background');
      await post(`${item(survivor)}/merge`, { mergedKeys: [first, second] });
      await post(`${item(survivor)}/status`, { status: 'shipped' });
      await post(`${item(survivor)}/changelog`, { publish: true });
      const published = await entryOf(survivor);
      expect(published.itemIds).to.deep.equal([survivor, first, second]);
      expect(published.body).to.include(
        `Also answers: Night theme (${first}); Black background (${second}).`,
      );

      await post(`${item(survivor)}/unmerge`, { mergedKeys: [first] });
      const after = await entryOf(survivor);
      expect(after.itemIds).to.deep.equal([survivor, second]);
      expect(after.body).to.include(`\n\nAlso answers: Black background (${second}).\n\n`);
      expect(after.body).not.to.include(first);

      await post(`${item(survivor)}/unmerge`, { mergedKeys: [second] });
      const none = await entryOf(survivor);
      expect(none.itemIds).to.deep.equal([survivor]);
      expect(none.body).not.to.include('Also answers');
      expect(none.body).to.match(/^Dark mode, please\n\nRequested by /);

      await post(`${item(survivor)}/merge`, { mergedKeys: [first] });
      expect((await entryOf(survivor)).itemIds).to.deep.equal([survivor, first]);
    });
  });

  describe('When the announced item leaves shipped', () => {
    it('is not listed while it is not shipped, and is listed as published when it ships again', async () => {
      const shipped = await file('Export to CSV');
      await post(`${item(shipped)}/status`, { status: 'shipped' });
      await post(`${item(shipped)}/changelog`, { publish: true, title: 'CSV export is here' });
      const published = await entryOf(shipped);
      expect(published.title).to.equal('CSV export is here');

      await post(`${item(shipped)}/status`, { status: 'in-progress' });
      expect(await entryOf(shipped)).to.equal(undefined);

      await post(`${item(shipped)}/status`, { status: 'shipped' });
      expect(await entryOf(shipped)).to.deep.equal(published);
    });
  });

  describe('When the announced item is merged into an item not shipped', () => {
    it('is not listed until the survivor ships, and follows its own item once given back', async () => {
      const announced = await file('Keyboard shortcuts');
      const survivor = await file('Hotkeys everywhere');
      await post(`${item(announced)}/status`, { status: 'shipped' });
      await post(`${item(announced)}/changelog`, { publish: true });
      const published = await entryOf(announced);
      expect(published.itemIds).to.deep.equal([announced]);

      await post(`${item(survivor)}/merge`, { mergedKeys: [announced] });
      const shown = await owner.get(`${item(announced)}`);
      expect(shown.body.status, 'the board shows the survivor for the merged key').to.not.equal(
        'shipped',
      );
      expect(await entryOf(announced), 'merged into an item not shipped').to.equal(undefined);

      await post(`${item(survivor)}/status`, { status: 'shipped' });
      expect(await entryOf(announced), 'the survivor shipped').to.deep.equal(published);

      await post(`${item(survivor)}/status`, { status: 'planned' });
      expect(await entryOf(announced), 'the survivor planned again').to.equal(undefined);

      await post(`${item(survivor)}/unmerge`, { mergedKeys: [announced] });
      expect(await entryOf(announced), 'given back, it is shipped').to.deep.equal(published);
    });
  });

  describe('When the announced item is merged along a chain: A into B, then B into C', () => {
    it('follows C, the end of the chain, on the API, the board page and the Atom feed', async () => {
      const a = await file('Offline mode');
      const b = await file('Works without network');
      const c = await file('Airplane mode');
      for (const key of [a, b]) await post(`${item(key)}/status`, { status: 'shipped' });
      await post(`${item(a)}/changelog`, { publish: true });
      const published = await entryOf(a);
      const visitor = new BoardVisitor(board.fb.url);
      const onBoard = async () => {
        const page = await visitor.get('/acme-co/APP/changelog');
        const feed = await visitor.get('/acme-co/APP/changelog.atom');
        const shown = page.text.includes(`id="entry-chg-${a}"`);
        expect(
          feed.text.includes(`changelog#entry-chg-${a}`),
          'the feed lists what the page does',
        ).to.equal(shown);
        return shown;
      };

      await post(`${item(b)}/merge`, { mergedKeys: [a] });
      expect(await entryOf(a), 'merged into B, shipped').to.deep.equal(published);
      await post(`${item(c)}/merge`, { mergedKeys: [b] });
      expect(await entryOf(a), 'B merged into C, not shipped: C counts, not B').to.equal(undefined);
      expect(await onBoard(), 'the board page and feed follow C too').to.equal(false);

      await post(`${item(c)}/status`, { status: 'shipped' });
      expect(await entryOf(a), 'C shipped').to.deep.equal(published);
      expect(await onBoard()).to.equal(true);
      await post(`${item(c)}/status`, { status: 'planned' });
      expect(await entryOf(a), 'C planned again').to.equal(undefined);

      await post(`${item(c)}/unmerge`, { mergedKeys: [b] });
      expect(await entryOf(a), 'B given back by C: B, shipped, counts again').to.deep.equal(
        published,
      );
    });
  });
});
