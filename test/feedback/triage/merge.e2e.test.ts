/**
 * merge_items over real HTTP: the survivor keeps the +1s and the people, a retry is safe, and a
 * merged item can be merged no more. Refusals stay within the declared 400/404.
 */
import { expect } from 'chai';
import { addPlusOne } from '../../../src/feedback/actions/index.js';
import type { Api } from '../support/harness.js';
import {
  type Board,
  expect400,
  expect404,
  item,
  items,
  products,
  seedItems,
  startBoard,
} from './board.js';

describe('merge_items (e2e)', () => {
  let board: Board;
  let api: Api;
  const people: Record<string, string> = {};
  const merge = (survivor: string, mergedKeys: unknown, headers?: Record<string, string>) =>
    api.post(`${item(survivor)}/merge`, { mergedKeys }, headers ? { headers } : undefined);
  const listed = async () =>
    (await api.get(`${items()}?pageSize=200`)).body.items.map((i: { id: string }) => i.id);

  before(async () => {
    board = await startBoard();
    const { fb, ws } = board;
    api = fb.api(board.member.token);
    // APP-1 by ann (+1 bo); APP-2 by bo (+1 ann); APP-3 by cy (+1 di); APP-4 by di; APP-5 by eve
    for (const name of ['ann', 'bo', 'cy', 'di', 'eve']) {
      const { personId } = await fb.submit(ws, 'APP', {
        body: `${name} wants dark mode`,
        email: `${name}@x.io`,
        displayName: name,
      });
      people[name] = personId;
    }
    const deps = fb.deps();
    const plusOne = (itemKey: string, personId: string) =>
      addPlusOne(deps, fb.context(), { workspaceId: ws.workspaceId, itemKey, personId });
    await plusOne('APP-1', people.bo!);
    await plusOne('APP-2', people.ann!);
    await plusOne('APP-3', people.di!);
    await fb.caughtUp();
  });
  after(() => board.fb.stop());

  describe('When duplicates are merged into a survivor', () => {
    it('the survivor keeps the +1s and the people, and the response counts the new people', async () => {
      // spec rule 1: "that item is the survivor and keeps the +1s and the people"
      // spec merge_items: "{survivorId: string, mergedPeople: integer >= 0}"
      const res = await merge('APP-1', ['APP-2', 'APP-3']);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      // new to APP-1: cy (submitted APP-3) and di (+1 on APP-3); ann and bo were there already
      expect(res.body).to.deep.equal({ survivorId: 'APP-1', mergedPeople: 2 });
      const { item: survivor, participants } = (await api.get(item('APP-1'))).body;
      expect(survivor.plusOneCount).to.equal(3); // bo, cy, di — ann submitted it
      expect(participants.map((p: { personId: string }) => p.personId).sort()).to.deep.equal(
        [people.ann, people.bo, people.cy, people.di].sort(),
      );
      // read-your-writes: the merged items left the listing and the product's count
      expect(await listed()).to.deep.equal(['APP-5', 'APP-4', 'APP-1']);
      const app = (await api.get(products())).body.items.find(
        (p: { id: string }) => p.id === 'APP',
      );
      expect(app.itemCount).to.equal(3);
    });

    it('repeating the same merge is safe and answers the same', async () => {
      // issue 3: "merging is idempotent on retry"
      const again = await merge('APP-1', ['APP-2', 'APP-3']);
      expect(again.status).to.equal(200);
      expect(again.body).to.deep.equal({ survivorId: 'APP-1', mergedPeople: 2 });
      expect((await api.get(item('APP-1'))).body.item.plusOneCount).to.equal(3);
      const keyed = { 'idempotency-key': 'merge-retry-1' };
      const first = await merge('APP-1', ['APP-3'], keyed);
      const retried = await merge('APP-1', ['APP-3'], keyed);
      expect(retried.body).to.deep.equal(first.body);
      expect((await api.get(item('APP-1'))).body.item.plusOneCount).to.equal(3);
    });

    it('a merged item still answers get_item but refuses changes (400)', async () => {
      // our rule (spec: "effect on the merged items' status: not shown"): it keeps its status,
      // becomes read-only, and refusals use the declared 400
      const merged = await api.get(item('APP-2'));
      expect(merged.status).to.equal(200);
      expect(merged.body.item.status).to.equal('new');
      expect400(await api.post(`${item('APP-2')}/status`, { status: 'planned' }));
      expect400(await api.patch(item('APP-2'), { title: 'x' }));
      expect400(await api.post(`${item('APP-2')}/tags`, { tagIds: ['x'] }));
      expect400(await api.post(`${item('APP-2')}/replies`, { body: 'x' }));
    });
  });

  describe('When a merge is not possible', () => {
    it('refuses to merge an already merged item again, into anything (400)', async () => {
      // issue 3: "no item can be merged twice"
      const res = await merge('APP-4', ['APP-2']);
      expect400(res);
      expect(res.body.error).to.include('APP-1');
      expect400(await merge('APP-2', ['APP-4'])); // a merged item cannot survive a merge either
      expect(await listed()).to.include('APP-4');
    });

    it('refuses to merge an item into itself (400)', async () => {
      // issue 3: "no item can be merged ... into itself"
      expect400(await merge('APP-4', ['APP-4']));
      expect400(await merge('APP-4', ['APP-5', 'APP-4']));
      expect(await listed()).to.deep.equal(['APP-5', 'APP-4', 'APP-1']);
    });

    it('answers 404 for an unknown key and merges nothing', async () => {
      // spec: "unknown item" -> 404 not-found
      expect404(await merge('APP-4', ['APP-5', 'APP-99']));
      expect404(await merge('APP-99', ['APP-5']));
      expect(await listed()).to.deep.equal(['APP-5', 'APP-4', 'APP-1']);
    });

    it("answers 404 for another product's item, a private one above all, and merges nothing", async () => {
      // the route is the product's: under /products/APP an SEC item does not exist (get_item
      // answers 404), and merging it would put a private product's people and +1s on APP's
      // public board
      const { fb, ws } = board;
      const { itemKey } = await fb.submit(ws, 'SEC', { body: 'secret duplicate', email: 'z@x.io' });
      const refused = await merge('APP-4', [itemKey]);
      expect404(refused);
      expect(refused.body.error).to.equal(`item ${itemKey} not found in APP`);
      const secret = await api.get(item(itemKey));
      expect(secret.body.item.status).to.not.equal('merged');
      expect((await api.get(item('APP-4'))).body.item.plusOneCount).to.equal(0);
    });

    it('refuses an empty list, 51 keys and malformed keys (400)', async () => {
      // spec Limits: "mergedKeys: 1 to 50 entries"; item key regex `^[A-Z]{3,5}-[1-9]\d*$`
      const empty = await merge('APP-4', []);
      expect400(empty);
      // a list's bound is counted in entries, as the refusal says
      expect(empty.body.error).to.equal('mergedKeys must have at least 1 entries');
      const many = await merge(
        'APP-4',
        Array.from({ length: 51 }, (_, i) => `APP-${i + 10}`),
      );
      expect400(many);
      expect(many.body.error).to.equal('mergedKeys must have at most 50 entries');
      expect400(await merge('APP-4', ['app-5']));
      expect400(await merge('APP-4', ['APP-05']));
      expect400(await api.post(`${item('APP-4')}/merge`, {}));
    });
  });

  describe('When 50 duplicates are merged at once', () => {
    it('accepts the 50 keys the limit allows', async () => {
      // spec Limits: "mergedKeys: 1 to 50 entries" (boundary)
      const keys = await seedItems(board, 50);
      const res = await merge('APP-5', keys);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      // the seeding requester is the one person new to APP-5
      expect(res.body).to.deep.equal({ survivorId: 'APP-5', mergedPeople: 1 });
      expect(await listed()).to.deep.equal(['APP-5', 'APP-4', 'APP-1']);
      expect((await api.get(item('APP-5'))).body.item.plusOneCount).to.equal(1);
    });
  });
});
