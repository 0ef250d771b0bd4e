/**
 * draft_changelog_entry and the published entry over a merge chain, over real HTTP: A merged
 * into B, then B into C. Spec, Triage rule 1: the survivor "keeps the +1s and the people", so
 * what B took from A lives on in C, and announcing C answers A too: its key, its "Also answers"
 * part, and the name of who filed it. unmerge_items "undoes merges exactly": giving B back takes
 * A back with it (A lives inside B), so the entry no longer answers A nor names Ann for it.
 * The draft read only the keys merged straight into C: A and Ann's name were missing.
 */
import { expect } from 'chai';
import { addPlusOne } from '../../../src/feedback/actions/index.js';
import type { Api } from '../support/harness.js';
import { type Board, item, startBoard } from '../triage/board.js';

const changelog = '/v1/public/acme-co/APP/changelog';

describe('A changelog entry over a merge chain: A merged into B, then B into C (e2e)', () => {
  let board: Board;
  let owner: Api;
  let outsider: Api;

  before(async () => {
    board = await startBoard();
    owner = board.fb.api(board.owner.token);
    outsider = board.fb.api(board.outsider.token);
  });
  after(() => board.fb.stop());

  async function file(title: string, who: string) {
    const { fb, ws } = board;
    return fb.submit(ws, 'APP', {
      title,
      body: `${title}, please`,
      email: `${who.toLowerCase()}@x.io`,
      displayName: who,
    });
  }
  async function post(path: string, body: unknown) {
    const res = await owner.post(path, body);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body;
  }
  const entryOf = async (itemKey: string) => {
    const res = await outsider.get(changelog);
    expect(res.status).to.equal(200);
    return res.body.items.find((e: { id: string }) => e.id === `chg-${itemKey}`);
  };

  describe('When C is announced, and B is given back after publication', () => {
    it('answers A and names Ann, then takes both back with B; merged again, they are back', async () => {
      const { fb, ws } = board;
      const { itemKey: a, personId: ann } = await file('Dark theme', 'Ann');
      const { itemKey: b } = await file('Night theme', 'Bob');
      const { itemKey: c } = await file('Dark mode', 'Cy');
      // Ann +1'd C as well: she stays on C when B leaves, counted, no longer named for filing A
      await fb.caughtUp(
        (
          await addPlusOne(fb.deps(), fb.context(), {
            workspaceId: ws.workspaceId,
            itemKey: c,
            personId: ann,
          })
        ).position,
      );
      await post(`${item(b)}/merge`, { mergedKeys: [a] });
      await post(`${item(c)}/merge`, { mergedKeys: [b] });
      await post(`${item(c)}/status`, { status: 'shipped' });

      const draft = await post(`${item(c)}/changelog`, {});
      expect(draft).to.deep.equal({
        title: 'Dark mode',
        body: `Dark mode, please\n\nAlso answers: Dark theme (${a}); Night theme (${b}).\n\nRequested by Cy, Ann and Bob.`,
        itemIds: [c, b, a],
        requestedByNames: ['Cy', 'Ann', 'Bob'],
        requestedByCount: 3,
        publishedId: null,
      });
      const published = await post(`${item(c)}/changelog`, { publish: true });
      expect(published).to.deep.include({ ...draft, publishedId: `chg-${c}` });
      const listed = await entryOf(c);
      expect(listed).to.deep.include({
        itemIds: [c, b, a],
        body: draft.body,
        requestedByNames: ['Cy', 'Ann', 'Bob'],
        requestedByCount: 3,
      });

      await post(`${item(c)}/unmerge`, { mergedKeys: [b] });
      expect(await entryOf(c), 'A went with B; Bob left, Ann stays counted').to.deep.include({
        itemIds: [c],
        body: 'Dark mode, please\n\nRequested by Cy and 1 other.',
        requestedByNames: ['Cy'],
        requestedByCount: 2,
      });

      await post(`${item(c)}/merge`, { mergedKeys: [b] });
      expect(await entryOf(c), 'B came back with A inside it').to.deep.equal(listed);
    });
  });
});
