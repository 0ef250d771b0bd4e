/**
 * update_item, update_item_status, tag_item and reply_to_item over real HTTP: each limit at its
 * boundary and one past it, each enum value, and read-your-writes (the next GET shows the write).
 */
import { expect } from 'chai';
import type { Api } from '../support/harness.js';
import { connectClient } from '../support/oauth.js';
import { type Board, chars, expect400, expect404, item, startBoard } from './board.js';

const STATUSES = ['new', 'planned', 'in-progress', 'shipped', 'declined'] as const;

describe('Triage writes (e2e)', () => {
  let board: Board;
  let api: Api;
  const read = async (key = 'APP-1') => (await api.get(item(key))).body;

  before(async () => {
    board = await startBoard();
    api = board.fb.api(board.member.token);
    await board.fb.submit(board.ws, 'APP', { body: 'Dark mode please', email: 'ann@x.io' });
    await board.fb.submit(board.ws, 'APP', { body: 'Export to CSV', email: 'bo@x.io' });
  });
  after(() => board.fb.stop());

  describe('When a member updates an item', () => {
    it('changes title, body and status in one call and the next GET shows it', async () => {
      // spec update_item: "partial: title, body, status" -> {item: Item}; "title and body may
      // change in the same call"
      const res = await api.patch(item('APP-1'), {
        title: 'Dark theme',
        body: 'Support a dark theme',
        status: 'planned',
      });
      expect(res.status).to.equal(200);
      expect(res.body.item).to.include({ id: 'APP-1', title: 'Dark theme', status: 'planned' });
      expect(res.body.item.statusChangedAt).to.be.a('number');
      expect(Object.keys(res.body.item).some((k) => k.startsWith('_'))).to.equal(false);
      expect((await read()).item).to.deep.equal(res.body.item);
    });

    it('accepts title 1 and 500, body 1 and 50000 characters; refuses 0, 501 and 50001 (400)', async () => {
      // spec Limits: "item title (update_item): 1 to 500 chars"; "item body (update_item): 1 to 50000"
      expect((await api.patch(item('APP-1'), { title: chars(1) })).body.item.title).to.equal('x');
      expect((await api.patch(item('APP-1'), { title: chars(500) })).status).to.equal(200);
      expect((await api.patch(item('APP-1'), { body: chars(1) })).body.item.body).to.equal('x');
      expect((await api.patch(item('APP-1'), { body: chars(50_000) })).status).to.equal(200);
      expect400(await api.patch(item('APP-1'), { title: '' }));
      expect400(await api.patch(item('APP-1'), { title: chars(501) }));
      expect400(await api.patch(item('APP-1'), { body: '' }));
      expect400(await api.patch(item('APP-1'), { body: chars(50_001) }));
      expect((await read()).item.body).to.have.length(50_000);
    });

    it('counts characters, not UTF-16 units: 500 emoji are a valid title, 501 are not', async () => {
      // spec Limits count characters ("item title: 1 to 500 chars"), as the OpenAPI maxLength does;
      // an emoji is one character and two UTF-16 units
      const emoji = (n: number) => chars(n, '\u{1F600}');
      expect((await api.patch(item('APP-1'), { title: emoji(500) })).status).to.equal(200);
      expect((await api.patch(item('APP-1'), { body: emoji(50_000) })).status).to.equal(200);
      expect((await read()).item.title).to.equal(emoji(500));
      expect400(await api.patch(item('APP-1'), { title: emoji(501) }));
      expect400(await api.patch(item('APP-1'), { body: emoji(50_001) }));
      const tags = `${item('APP-1')}/tags`;
      expect((await api.post(tags, { tagIds: [emoji(60)] })).body.tagIds).to.deep.equal([
        emoji(60),
      ]);
      expect400(await api.post(tags, { tagIds: [emoji(61)] }));
      await board.fb.submit(board.ws, 'APP', { body: 'Emoji reactions', email: 'cy@x.io' });
      const replies = `${item('APP-3')}/replies`;
      expect((await api.post(replies, { body: emoji(10_000) })).status).to.equal(200);
      expect400(await api.post(replies, { body: emoji(10_001) }));
      await api.patch(item('APP-1'), { title: 'Dark theme', body: 'Support a dark theme' });
      await api.post(tags, { tagIds: [] });
    });

    it('refuses whitespace-only titles, other fields and unknown statuses (400)', async () => {
      // spec update_item: "no other fields allowed"; status is the item status enum
      expect400(await api.patch(item('APP-1'), { title: '   ' }));
      expect400(await api.patch(item('APP-1'), { title: 'ok', tagIds: [] }));
      expect400(await api.patch(item('APP-1'), { status: 'done' }));
    });

    for (const status of STATUSES) {
      it(`sets status ${status} through update_item`, async () => {
        // spec: "any status | update_item with status | ... | the requested status"
        const res = await api.patch(item('APP-1'), { status });
        expect(res.body.item.status).to.equal(status);
        expect((await read()).item.status).to.equal(status);
      });
    }

    it('answers an empty object with the item unchanged', async () => {
      // our rule (update_item is partial): `{}` changes nothing and answers the item as is
      const before = (await read()).item;
      const res = await api.patch(item('APP-1'), {});
      expect(res.status).to.equal(200);
      expect(res.body.item).to.deep.equal(before);
    });

    it('answers a retry as its first attempt, whatever was written to the item since', async () => {
      // README: "a retry with the same Idempotency-Key returns the first result. That holds for
      // every write — one that changed nothing too". Found by the board model: a retry (of an
      // edit, or of `{}`) answered a reply written since, because the title, body and status
      // were still the edit's
      const { itemKey } = await board.fb.submit(board.ws, 'APP', { body: 'Retry me' });
      const keyed = (key: string) => ({ headers: { 'idempotency-key': `${key}-${itemKey}` } });
      const edit = await api.patch(item(itemKey), { title: 'Edited once' }, keyed('edit'));
      const nothing = await api.patch(item(itemKey), {}, keyed('nothing'));
      expect(nothing.body).to.deep.equal(edit.body);
      await api.post(`${item(itemKey)}/replies`, { body: 'Written since' });
      expect(
        (await api.patch(item(itemKey), { title: 'Edited once' }, keyed('edit'))).body,
      ).to.deep.equal(edit.body);
      expect((await api.patch(item(itemKey), {}, keyed('nothing'))).body).to.deep.equal(
        nothing.body,
      );
      expect((await read(itemKey)).item.replyCount).to.equal(1);
    });

    it('answers 404 for an unknown item', async () => {
      expect404(await api.patch(item('APP-77'), { title: 'x' }));
    });
  });

  describe('When a member changes an item status', () => {
    for (const status of STATUSES) {
      it(`sets ${status}; a repeat answers changed false`, async () => {
        // spec: "response changed is true; when the item already has that status, changed is
        // false and the call is safe to repeat"
        const path = `${item('APP-2')}/status`;
        const first = await api.post(path, { status });
        expect(first.status).to.equal(200);
        // APP-2 starts as `new`, so setting `new` first is already a no-op
        expect(first.body).to.deep.equal({ status, changed: status !== 'new' });
        expect((await read('APP-2')).item.status).to.equal(status);
        expect((await api.post(path, { status })).body).to.deep.equal({ status, changed: false });
      });
    }

    it("answers a retry of a change that changed nothing as it was, undoing nobody's change since", async () => {
      // README: "a retry with the same Idempotency-Key returns the first result. That holds for
      // every write". An audit found the retry of a no-op decided again: it set the item back
      // over another member's change, and the same key with another status was run, not refused.
      const { itemKey } = await board.fb.submit(board.ws, 'APP', {
        body: 'Offline mode',
        email: 'dee@x.io',
      });
      const path = `${item(itemKey)}/status`;
      await api.post(path, { status: 'planned' });
      const keyed = { headers: { 'idempotency-key': `no-op-${itemKey}` } };
      const first = await api.post(path, { status: 'planned' }, keyed);
      expect(first.body).to.deep.equal({ status: 'planned', changed: false });
      await board.fb.api(board.owner.token).post(path, { status: 'shipped' });
      const again = await api.post(path, { status: 'planned' }, keyed);
      expect(again.status, JSON.stringify(again.body)).to.equal(200);
      expect(again.body).to.deep.equal(first.body);
      expect((await read(itemKey)).item.status).to.equal('shipped');
      const other = await api.post(path, { status: 'declined' }, keyed);
      expect(other.status, JSON.stringify(other.body)).to.equal(409);
      expect((await read(itemKey)).item.status).to.equal('shipped');
    });

    it('refuses a missing or unknown status (400)', async () => {
      expect400(await api.post(`${item('APP-2')}/status`, {}));
      expect400(await api.post(`${item('APP-2')}/status`, { status: 'Shipped' }));
    });
  });

  describe('When a member tags an item', () => {
    it('replaces the whole set, and the next GET shows it', async () => {
      // spec rule 2: "tag_item replaces the whole tag set; it never adds to it"
      const path = `${item('APP-2')}/tags`;
      expect((await api.post(path, { tagIds: ['ux', 'export'] })).body).to.deep.equal({
        tagIds: ['ux', 'export'],
      });
      expect((await api.post(path, { tagIds: ['billing'] })).body.tagIds).to.deep.equal([
        'billing',
      ]);
      expect((await read('APP-2')).item.tagIds).to.deep.equal(['billing']);
      expect((await api.post(path, { tagIds: [] })).body.tagIds).to.deep.equal([]);
      expect((await read('APP-2')).item.tagIds).to.deep.equal([]);
    });

    it('accepts 20 tags of 60 characters; refuses 21 tags, 61 characters and empty ones (400)', async () => {
      // spec Limits: "tagIds: at most 20 entries, each 1 to 60 chars"
      const path = `${item('APP-2')}/tags`;
      const twenty = Array.from({ length: 20 }, (_, i) => `${i}`.padStart(60, 't'));
      expect((await api.post(path, { tagIds: twenty })).body.tagIds).to.deep.equal(twenty);
      expect((await api.post(path, { tagIds: ['a'] })).body.tagIds).to.deep.equal(['a']);
      expect400(await api.post(path, { tagIds: [...twenty, 'one-more'] }));
      expect400(await api.post(path, { tagIds: [chars(61)] }));
      expect400(await api.post(path, { tagIds: [''] }));
      expect400(await api.post(path, {}));
      expect((await read('APP-2')).item.tagIds).to.deep.equal(['a']);
    });
  });

  describe('When a member replies on an item', () => {
    it('records a maker reply for a personal token, visible at once', async () => {
      // spec Reply: "A reply posted with a personal API token ... is an ordinary maker reply";
      // rule 3: "A reply is public immediately"
      const res = await api.post(`${item('APP-2')}/replies`, { body: 'Thanks!' });
      expect(res.status).to.equal(200);
      expect(res.body.replyId).to.be.a('string').and.not.equal('');
      const { replies, item: after } = await read('APP-2');
      expect(after.replyCount).to.equal(1);
      expect(replies).to.have.length(1);
      expect(replies[0]).to.include({
        id: res.body.replyId,
        itemId: 'APP-2',
        productId: 'APP',
        authorKind: 'maker',
        authorId: board.member.userId,
        authorName: 'member',
        parentId: null,
        body: 'Thanks!',
      });
    });

    it('threads under parentId, and null means top level', async () => {
      // spec reply_to_item: "parentId (string min 1, or null; optional)"
      const parent = (await api.post(`${item('APP-2')}/replies`, { body: 'Q?' })).body.replyId;
      const child = await api.post(`${item('APP-2')}/replies`, { body: 'A.', parentId: parent });
      const top = await api.post(`${item('APP-2')}/replies`, { body: 'B.', parentId: null });
      const replies = (await api.get(`${item('APP-2')}/replies`)).body.items;
      const byId = new Map(replies.map((r: { id: string }) => [r.id, r]));
      expect(byId.get(child.body.replyId)).to.include({ parentId: parent });
      expect(byId.get(top.body.replyId)).to.include({ parentId: null });
    });

    it('accepts bodies of 1 and 10000 characters; refuses 0, 10001, blank and unknown parents (400)', async () => {
      // spec Limits: "reply body: 1 to 10000 chars"
      const path = `${item('APP-1')}/replies`;
      expect((await api.post(path, { body: chars(1) })).status).to.equal(200);
      expect((await api.post(path, { body: chars(10_000) })).status).to.equal(200);
      expect400(await api.post(path, { body: '' }));
      expect400(await api.post(path, { body: chars(10_001) }));
      expect400(await api.post(path, { body: '  \n ' }));
      expect400(await api.post(path, { body: 'x', parentId: '' }));
      expect400(await api.post(path, { body: 'x', parentId: 'r-not-on-this-item' }));
      expect((await read('APP-1')).replies).to.have.length(2);
      expect404(await api.post(`${item('APP-77')}/replies`, { body: 'x' }));
    });

    it('records an agent reply with the client name for an OAuth access token', async () => {
      // spec Reply: "A reply posted with an OAuth access token is recorded with authorKind agent
      // and carries the client's name."
      const client = await connectClient(board.fb, { email: 'owner@acme.io', name: 'Helper Bot' });
      const agent = board.fb.api(client.accessToken);
      const res = await agent.post(`${item('APP-1')}/replies`, { body: 'Filed by the bot' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const reply = (await agent.get(`${item('APP-1')}/replies`)).body.items.find(
        (r: { id: string }) => r.id === res.body.replyId,
      );
      expect(reply).to.include({ authorKind: 'agent', authorName: 'Helper Bot' });
    });
  });
  describe('When two members reply on one item with the same Idempotency-Key', () => {
    it('files two replies: a key belongs to whoever sent it', async () => {
      // keys are scoped to the actor (write/batch.ts scopedKey); an id derived from the key must
      // be too, or the second member's reply would reuse the first one's id
      const replies = `${item('APP-2')}/replies`;
      const headers = { headers: { 'idempotency-key': 'shared-key-1' } };
      const owner = board.fb.api(board.owner.token);
      const first = await api.post(replies, { body: 'from the member' }, headers);
      const second = await owner.post(replies, { body: 'from the owner' }, headers);
      expect(first.status, JSON.stringify(first.body)).to.equal(200);
      expect(second.status, JSON.stringify(second.body)).to.equal(200);
      expect(second.body.replyId).not.to.equal(first.body.replyId);
      const again = await owner.post(replies, { body: 'from the owner' }, headers);
      expect(again.body.replyId).to.equal(second.body.replyId);
      const listed = (await api.get(replies)).body.items as { id: string; body: string }[];
      const ours = listed.filter((r) => r.body.startsWith('from the '));
      expect(ours.map((r) => r.id)).to.deep.equal([first.body.replyId, second.body.replyId]);
    });
  });
});
