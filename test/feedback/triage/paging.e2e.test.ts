/**
 * list_items paging over real HTTP with 1 000 items: a walk at pageSize 7 returns every item
 * exactly once, also while new items arrive; cursors are opaque and an edited one is a 400.
 */
import { expect } from 'chai';
import type { Api } from '../support/harness.js';
import { type Board, expect400, items, seedItems, startBoard } from './board.js';

const TOTAL = 1_000;

async function walk(
  api: Api,
  pageSize: number,
  onPage: (page: number) => Promise<void> = async () => {},
) {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 1_000; page++) {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const res = await api.get(`${items()}?pageSize=${pageSize}${query}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.items.length).to.be.at.most(pageSize);
    seen.push(...res.body.items.map((i: { id: string }) => i.id));
    cursor = res.body.nextCursor;
    if (cursor === null) return seen;
    await onPage(page);
  }
  throw new Error('the walk never ended');
}

describe('list_items paging (e2e)', () => {
  let board: Board;
  let api: Api;
  let seeded: string[];

  before(async function () {
    this.timeout(60_000);
    board = await startBoard();
    api = board.fb.api(board.owner.token);
    seeded = await seedItems(board, TOTAL);
  });
  after(() => board.fb.stop());

  describe('When a client walks 1 000 items at pageSize 7', () => {
    it('gets every item exactly once and then nextCursor null', async () => {
      // spec Paging 1: "pass it back as cursor for the next page. It is null at the end."
      const seen = await walk(api, 7);
      expect(seen).to.have.length(TOTAL);
      expect(new Set(seen).size).to.equal(TOTAL);
      expect([...seen].sort()).to.deep.equal([...seeded].sort());
    });

    it('still gets every item exactly once while new items arrive during the walk', async () => {
      // DESIGN "Cursors are opaque (signed or encoded), stable under concurrent writes"
      const arrived: string[] = [];
      const before = TOTAL;
      const seen = await walk(api, 7, async (page) => {
        if (page % 20 !== 0) return;
        const res = await api.post(`/v1/public/acme-co/APP/feedback`, {
          body: `arrived during the walk ${page}`,
        });
        expect(res.status).to.equal(200);
        arrived.push(res.body.itemId);
      });
      expect(arrived.length).to.be.greaterThan(5);
      expect(seen).to.have.length(before);
      expect(new Set(seen).size).to.equal(seen.length);
      // newest first: what arrived during the walk sorts ahead of the cursor, never inside it
      for (const key of arrived) expect(seen).not.to.include(key);
      expect((await walk(api, 200)).length).to.equal(before + arrived.length);
    });
  });

  describe('When the cursor is not one the service handed out', () => {
    let cursor: string;

    before(async () => {
      cursor = (await api.get(`${items()}?pageSize=7`)).body.nextCursor;
      expect(cursor).to.be.a('string');
    });

    it('answers 400 for a cursor with one character changed', async () => {
      // spec Paging 1: "Clients must not parse or edit it." DESIGN: "rejected with 400 when tampered with"
      const flip = (c: string) => (c === 'A' ? 'B' : 'A');
      for (const at of [
        0,
        5,
        Math.floor(cursor.length / 2),
        cursor.length - 3,
        cursor.length - 1,
      ]) {
        const edited = cursor.slice(0, at) + flip(cursor[at]!) + cursor.slice(at + 1);
        expect400(await api.get(`${items()}?cursor=${encodeURIComponent(edited)}`));
      }
    });

    it('answers 400 for garbage and for a cursor of another listing', async () => {
      expect400(await api.get(`${items()}?cursor=not-a-cursor`));
      expect400(await api.get(`${items('SEC')}?cursor=${encodeURIComponent(cursor)}`));
    });

    it('answers 400 for a cursor sent with other filters than it was issued with', async () => {
      // list_items: "walking to the end returns every item … exactly once" holds for one
      // listing; a cursor carried to another filter would start mid-way and skip items
      const c = encodeURIComponent(cursor);
      expect400(await api.get(`${items()}?cursor=${c}&status=shipped`));
      expect400(await api.get(`${items()}?cursor=${c}&tag=ui`));
      const filtered = (await api.get(`${items()}?pageSize=2&status=new`)).body.nextCursor;
      expect(filtered).to.be.a('string');
      const f = encodeURIComponent(filtered);
      expect((await api.get(`${items()}?cursor=${f}&status=new`)).status).to.equal(200);
      expect400(await api.get(`${items()}?cursor=${f}`));
    });

    it('answers 400 for an empty cursor (min length 1)', async () => {
      // spec list_items: "cursor (string, min 1)"
      expect400(await api.get(`${items()}?cursor=`));
    });
  });
});
