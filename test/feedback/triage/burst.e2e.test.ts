/**
 * Issue 17: "Commands whose outcome does not depend on racing writers (capture with the next item
 * number, reply, +1, tag replace, status change) never answer a concurrency error while the
 * deadline holds" and "Item keys stay dense and unique under the burst".
 */
import { expect } from 'chai';
import type { Api } from '../support/harness.js';
import { type Board, item, items, products, startBoard } from './board.js';

const feedback = '/v1/public/acme-co/APP/feedback';

describe('Bursts on one product and one item (e2e)', () => {
  let board: Board;
  let owner: Api;
  const app = async () =>
    (await owner.get(products())).body.items.find((p: { id: string }) => p.id === 'APP');
  before(async () => {
    board = await startBoard();
    owner = board.fb.api(board.owner.token);
  });
  after(() => board.fb.stop());

  describe('When 200 submissions to one product arrive at once from 10 callers', () => {
    it('answers every one 200 and numbers the items densely, each key once', async () => {
      const callers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          board.fb.createMaker(`burst-${i}@callers.example`, 'burst'),
        ),
      );
      const before = await app();
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          board.fb
            .api(callers[i % callers.length]!.token)
            .post(feedback, { body: `Burst submission ${i}` }),
        ),
      );
      expect(answers.map((a) => a.status)).to.deep.equal(answers.map(() => 200));
      const keys = answers.map((a) => a.body.itemId as string);
      const numbers = keys.map((k) => Number(k.split('-')[1])).sort((a, b) => a - b);
      const first = before.nextItemNumber as number;
      expect(numbers).to.deep.equal(Array.from({ length: 200 }, (_, i) => first + i));
      const after = await app();
      expect(after.itemCount).to.equal(before.itemCount + 200);
      expect(after.nextItemNumber).to.equal(first + 200);
      const listed = (await owner.get(`${items()}?pageSize=200`)).body.items.map(
        (i: { id: string }) => i.id,
      );
      expect(listed).to.include.members(keys);
    });
  });

  describe('When 100 replies to one item arrive at once', () => {
    it('answers every one 200 and records each reply once', async () => {
      const filed = await owner.post(feedback, { body: 'A popular thread' });
      const key = filed.body.itemId as string;
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          owner.post(`${item(key)}/replies`, { body: `reply number ${i}` }),
        ),
      );
      expect(answers.map((a) => a.status)).to.deep.equal(answers.map(() => 200));
      const ids = answers.map((a) => a.body.replyId as string);
      expect(new Set(ids).size).to.equal(100);
      const thread = await owner.get(item(key));
      expect(thread.body.item.replyCount).to.equal(100);
      const replies = (await owner.get(`${item(key)}/replies`)).body.items;
      expect(replies.map((r: { id: string }) => r.id).sort()).to.deep.equal([...ids].sort());
      expect(new Set(replies.map((r: { body: string }) => r.body)).size).to.equal(100);
    });
  });

  describe('When status changes and tag replacements on one item arrive at once', () => {
    it('answers every one 200 and ends in one of the requested states', async () => {
      const filed = await owner.post(feedback, { body: 'Contested item' });
      const key = filed.body.itemId as string;
      const statuses = ['planned', 'in-progress', 'shipped', 'declined', 'new'];
      const answers = await Promise.all([
        ...Array.from({ length: 40 }, (_, i) =>
          owner.post(`${item(key)}/status`, { status: statuses[i % statuses.length] }),
        ),
        ...Array.from({ length: 40 }, (_, i) =>
          owner.post(`${item(key)}/tags`, { tagIds: [`t${i}`] }),
        ),
      ]);
      expect(answers.map((a) => a.status)).to.deep.equal(answers.map(() => 200));
      const now = (await owner.get(item(key))).body.item;
      // requests on separate connections arrive in no fixed order: any one of them may be last
      expect(statuses).to.include(now.status);
      expect(now.tagIds).to.have.length(1);
      expect(now.tagIds[0]).to.match(/^t\d+$/);
    });
  });

  describe("When 20 edits of one item's title arrive at once", () => {
    it("answers each with the item as that edit left it, not another edit's title", async () => {
      // the answer was read once the read model held the write, when a later edit could
      // already be in it: most answers carried another request's title
      const filed = await owner.post(feedback, { body: 'Edited by many' });
      const key = filed.body.itemId as string;
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => owner.patch(item(key), { title: `Title ${i}` })),
      );
      for (const [i, answer] of answers.entries()) {
        expect(answer.status).to.equal(200);
        expect(answer.body.item.title, `edit ${i}`).to.equal(`Title ${i}`);
      }
      const titles = (await owner.get(`${item(key)}/history?pageSize=200`)).body.items.length;
      expect(titles).to.equal(21); // captured, then the 20 edits
    });
  });
});
