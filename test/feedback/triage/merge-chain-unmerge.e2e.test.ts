/**
 * Unmerging in a merge chain over real HTTP: A merged into B, then B into C; Dee +1s A on the
 * board, which lands on C (the end of the chain). unmerge_items "undoes merges exactly: each
 * merged item comes back with ... the +1s given on its key while it was merged" — and A lives
 * inside B, so giving B back gives back the +1 given on A with it: it leaves C, is counted on B
 * (given on A, where A lives on), goes on to A when A is given back in turn, and Dee can
 * withdraw it wherever it is. It stayed on C for ever (count 1, never withdrawable), and a second
 * press on A counted the same intention on B too.
 */
import { expect } from 'chai';
import { BoardVisitor, field } from '../board/support.js';
import type { Api } from '../support/harness.js';
import { type Board, item, startBoard } from './board.js';

describe('Unmerging in a merge chain: A merged into B, then B into C (e2e)', () => {
  let board: Board;
  let api: Api;
  const keys = { a: '', b: '', c: '' };
  const boardPath = '/acme-co/APP';

  before(async () => {
    board = await startBoard();
    const { fb, ws } = board;
    api = fb.api(board.member.token);
    for (const [name, who] of [
      ['a', 'ann'],
      ['b', 'bo'],
      ['c', 'cy'],
    ] as const) {
      const submitted = await fb.submit(ws, 'APP', {
        body: `${who} wants a night theme`,
        email: `${who}@x.io`,
        displayName: who,
      });
      keys[name] = submitted.itemKey;
    }
  });
  after(() => board.fb.stop());

  async function post(path: string, body: unknown): Promise<void> {
    const res = await api.post(path, body);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  }
  const counts = async () => {
    const count = async (key: string) =>
      (await api.get(item(key))).body.item.plusOneCount as number;
    return { a: await count(keys.a), b: await count(keys.b), c: await count(keys.c) };
  };
  async function press(visitor: BoardVisitor, csrf: string) {
    const pressed = await visitor.post(
      `${boardPath}/items/${keys.a}/plus-one`,
      { back: 'item', csrf },
      { json: true },
    );
    expect(pressed.status, pressed.text).to.equal(200);
    return JSON.parse(pressed.text) as { itemId: string; plusOned: boolean; csrf: string };
  }

  describe('When B is given back after Dee +1d A', () => {
    it('takes her +1 back with B, on to A with A, and lets her withdraw it there', async () => {
      await post(`${item(keys.b)}/merge`, { mergedKeys: [keys.a] });
      await post(`${item(keys.c)}/merge`, { mergedKeys: [keys.b] });
      // B counts Ann (who filed A), C counts Ann and Bo: they came with the merges
      const merged = await counts();
      const dee = new BoardVisitor(board.fb.url);
      const page = await dee.get(`${boardPath}/items/${keys.c}`);
      const given = await press(dee, field(page.text, 'csrf'));
      expect(given).to.include({ itemId: keys.c, plusOned: true });
      expect(await counts()).to.deep.equal({ ...merged, c: merged.c + 1 });

      await post(`${item(keys.c)}/unmerge`, { mergedKeys: [keys.b] });
      const unmerged = await counts();
      expect(unmerged.c, 'C keeps only its own: Dee +1d A, not C').to.equal(0);
      expect(unmerged.b, 'B counts Ann and Dee (given on A, which lives inside B)').to.equal(
        merged.b + 1,
      );
      const { participants } = (await api.get(item(keys.b))).body;
      const deeOnB = participants.find(
        (p: { context: string | null }) => p.context === `+1 on ${keys.a}`,
      );
      expect(deeOnB, JSON.stringify(participants)).to.include({ role: 'plus-one' });
      const itemsOfDee = async () => {
        const res = await api.get(`/v1/workspaces/acme-co/people/${deeOnB.personId}`);
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        return res.body.items.map((i: { id: string }) => i.id);
      };
      expect(await itemsOfDee(), "get_person: Dee's items").to.deep.equal([keys.b]);

      await post(`${item(keys.b)}/unmerge`, { mergedKeys: [keys.a] });
      expect(await counts(), 'A given back in turn: the +1 on its key goes with it').to.deep.equal({
        a: 1,
        b: 0,
        c: 0,
      });
      expect(await itemsOfDee()).to.deep.equal([keys.a]);

      // pressed again it is withdrawn from A, where it is counted now: one intention, one count
      const again = await press(dee, given.csrf);
      expect(again).to.include({ itemId: keys.a, plusOned: false });
      expect(await counts()).to.deep.equal({ a: 0, b: 0, c: 0 });
    });
  });
});
