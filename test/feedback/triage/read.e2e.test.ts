/** list_items (filters, page size), get_item, list_replies and resolve_item over real HTTP. */
import { expect } from 'chai';
import { addPlusOne } from '../../../src/feedback/actions/index.js';
import type { Api } from '../support/harness.js';
import { type Board, expect400, expect404, item, items, seedItems, startBoard } from './board.js';

const ITEM_FIELDS = [
  'id',
  'productId',
  'status',
  'title',
  'body',
  'rank',
  'tagIds',
  'plusOneCount',
  'replyCount',
  'author',
  'notifiedAt',
  'statusChangedAt',
  'createdAt',
  'createdBy',
  'updatedAt',
];
const STATUSES = ['new', 'planned', 'in-progress', 'shipped', 'declined'] as const;
const ids = (res: { body: { items: { id: string }[] } }) => res.body.items.map((i) => i.id);

describe('Reading items (e2e)', () => {
  let board: Board;
  let api: Api;
  let ann: string;

  before(async () => {
    board = await startBoard();
    const { fb, ws } = board;
    api = fb.api(board.member.token);
    // APP-1..5 one per status; ann filed APP-1 and APP-3, APP-2 came through a personal token
    ann = (await fb.submit(ws, 'APP', { body: 'Dark mode\nplease', email: 'ann@x.io' })).personId;
    await fb.submit(ws, 'APP', { body: 'Export', email: 'bo@x.io', via: 'pat:laptop' });
    await fb.submit(ws, 'APP', { body: 'Search', email: 'ann@x.io', title: 'Better search' });
    await fb.submit(ws, 'APP', { body: 'Sync', email: 'cy@x.io' });
    await fb.submit(ws, 'APP', { body: 'Offline', email: 'di@x.io' });
    for (const [n, status] of STATUSES.entries()) {
      if (status === 'new') continue;
      const res = await api.post(`${item(`APP-${n + 1}`)}/status`, { status });
      expect(res.status).to.equal(200);
    }
    await api.post(`${item('APP-2')}/tags`, { tagIds: ['ux', 'export'] });
    await api.post(`${item('APP-4')}/tags`, { tagIds: ['ux'] });
  });
  after(() => board.fb.stop());

  describe('When a member lists items', () => {
    it('answers items newest first with exactly the spec fields', async () => {
      // spec Item: "All fields except via are always present; no additional fields."
      const res = await api.get(items());
      expect(res.status).to.equal(200);
      expect(ids(res)).to.deep.equal(['APP-5', 'APP-4', 'APP-3', 'APP-2', 'APP-1']);
      expect(res.body.nextCursor).to.equal(null);
      for (const listed of res.body.items) {
        const expected = listed.id === 'APP-2' ? [...ITEM_FIELDS, 'via'] : ITEM_FIELDS;
        expect(listed).to.have.all.keys(expected);
        expect(listed.author).to.have.all.keys('tier', 'displayName', 'avatar');
      }
      const second = res.body.items.find((i: { id: string }) => i.id === 'APP-2');
      // spec Item.via: "absent (not empty) when the item was posted on the board's own page"
      expect(second.via).to.equal('pat:laptop');
      // spec Item.title: "derived from the opening of the body at capture" when left blank
      expect(res.body.items.at(-1).title).to.equal('Dark mode');
      expect(res.body.items[2].title).to.equal('Better search');
    });

    for (const [n, status] of STATUSES.entries()) {
      it(`filters by status ${status}`, async () => {
        // spec list_items query: "status (item status enum)"
        expect(ids(await api.get(`${items()}?status=${status}`))).to.deep.equal([`APP-${n + 1}`]);
      });
    }

    it('refuses a status outside the enum (400)', async () => {
      expect400(await api.get(`${items()}?status=done`));
    });

    it('filters by tag and by person', async () => {
      // spec list_items query: "tag (string, min 1), personId (string, min 1)"
      expect(ids(await api.get(`${items()}?tag=ux`))).to.deep.equal(['APP-4', 'APP-2']);
      expect(ids(await api.get(`${items()}?tag=nothing`))).to.deep.equal([]);
      expect(ids(await api.get(`${items()}?personId=${ann}`))).to.deep.equal(['APP-3', 'APP-1']);
      expect(ids(await api.get(`${items()}?personId=${ann}&tag=ux`))).to.deep.equal([]);
      expect400(await api.get(`${items()}?tag=`));
      expect400(await api.get(`${items()}?personId=`));
    });

    it('accepts pageSize 1 and 200 and refuses 0, 201 and non-integers (400)', async () => {
      // spec Limits: "pageSize (list_items, list_people): 1 to 200, default 50"
      const one = await api.get(`${items()}?pageSize=1`);
      expect(ids(one)).to.deep.equal(['APP-5']);
      expect(one.body.nextCursor).to.be.a('string');
      expect(ids(await api.get(`${items()}?pageSize=200`))).to.have.length(5);
      for (const bad of ['0', '201', '2.5', 'ten']) {
        expect400(await api.get(`${items()}?pageSize=${bad}`));
      }
    });

    it('answers 404 for an unknown product', async () => {
      // spec: "unknown item; unknown or unreachable workspace" -> 404 not-found
      expect404(await api.get(items('NOPE')));
    });
  });

  describe('When the product has more than 50 items', () => {
    it('answers 50 by default', async () => {
      // spec list_items: "pageSize (integer 1 to 200, default 50)"
      await board.fb.createProduct(board.ws, { key: 'BIG', name: 'Big', visibility: 'public' });
      await seedItems(board, 51, 'BIG');
      const res = await api.get(items('BIG'));
      expect(res.body.items).to.have.length(50);
      const rest = await api.get(
        `${items('BIG')}?cursor=${encodeURIComponent(res.body.nextCursor)}`,
      );
      expect(ids(rest)).to.deep.equal(['BIG-1']);
      expect(rest.body.nextCursor).to.equal(null);
    });
  });

  describe('When a member reads one item', () => {
    it('get_item answers the item, its whole thread and its participants', async () => {
      // spec get_item: "{item: Item, replies: [Reply], participants: [Participant]} (whole thread)"
      const { fb, ws } = board;
      const bo = (await fb.submit(ws, 'APP', { body: 'also me', email: 'bo@x.io' })).personId;
      await addPlusOne(fb.deps(), fb.context(), {
        workspaceId: ws.workspaceId,
        itemKey: 'APP-1',
        personId: bo,
      });
      await fb.caughtUp();
      const first = await api.post(`${item('APP-1')}/replies`, { body: 'On it' });
      await api.post(`${item('APP-1')}/replies`, { body: 'Soon', parentId: first.body.replyId });
      const res = await api.get(item('APP-1'));
      expect(res.status).to.equal(200);
      expect(res.body).to.have.all.keys('item', 'replies', 'participants');
      expect(res.body.item).to.include({ id: 'APP-1', plusOneCount: 1, replyCount: 2 });
      expect(res.body.replies.map((r: { body: string }) => r.body)).to.deep.equal([
        'On it',
        'Soon',
      ]);
      expect(res.body.replies[1].parentId).to.equal(first.body.replyId);
      expect(res.body.participants).to.deep.include.members([
        { personId: ann, role: 'submitted', displayName: null, avatar: null, context: null },
      ]);
      const roles = res.body.participants.map((p: { personId: string; role: string }) => p.role);
      expect(roles).to.deep.equal(['submitted', 'plus-one']);
      for (const p of res.body.participants) {
        expect(p).to.have.all.keys('personId', 'role', 'displayName', 'avatar', 'context');
      }
    });

    it('list_replies answers the same thread with nextCursor null', async () => {
      // spec Paging 2: "list_products and list_replies return everything and always answer nextCursor null"
      const res = await api.get(`${item('APP-1')}/replies`);
      expect(res.status).to.equal(200);
      expect(res.body.nextCursor).to.equal(null);
      expect(res.body.items).to.deep.equal((await api.get(item('APP-1'))).body.replies);
      expect((await api.get(`${item('APP-2')}/replies`)).body.items).to.deep.equal([]);
    });

    it('answers 404 for an unknown item, an item of another product, and a malformed key', async () => {
      // spec item key: regex `^[A-Z]{3,5}-[1-9]\d*$`; "unknown item" -> 404
      // issue 10 item 12: a key outside the format names no item
      expect404(await api.get(item('APP-999')));
      expect404(await api.get(`${items('SEC')}/APP-1`));
      expect404(await api.get(`${item('APP-999')}/replies`));
      expect404(await api.get(`${items()}/APP-01`));
      expect404(await api.get(`${items()}/app-1/replies`));
    });

    it('says when an item key names another product than the path, from the keys alone', async () => {
      // a bare "item not found" sent assistants looking for an item that exists under its own
      // product; the hint comes from the two keys sent, so it reveals nothing about what exists
      for (const path of [`${items('SEC')}/APP-1`, `${items('SEC')}/APP-999/replies`]) {
        const res = await api.get(path);
        expect404(res);
        expect(res.body.error).to.contain('not found in SEC').and.to.contain("one of APP's");
      }
      expect((await api.get(item('APP-999'))).body.error).to.equal('item not found');
    });
  });

  describe('When a caller resolves an item key', () => {
    it('finds it in every workspace the caller belongs to', async () => {
      // spec resolve_item: "searches every workspace the caller belongs to; several matches only
      // when two of the caller's workspaces share a product key"
      const { fb, owner } = board;
      const other = await fb.createWorkspace(owner, { slug: 'acme-two', name: 'Acme 2' });
      await fb.createProduct(other, { key: 'APP', name: 'Other app', visibility: 'private' });
      await fb.submit(other, 'APP', { body: 'elsewhere', email: 'ann@x.io' });
      const both = await fb.api(owner.token).get('/v1/items/APP-1');
      expect(both.status).to.equal(200);
      expect(both.body.matches.map((m: { slug: string }) => m.slug)).to.deep.equal([
        'acme-co',
        'acme-two',
      ]);
      expect(both.body.matches[1].item).to.include({ id: 'APP-1', body: 'elsewhere' });
      expect(both.body.matches[0].item).to.have.all.keys(ITEM_FIELDS);
      // the member belongs to acme-co only
      const one = await api.get('/v1/items/APP-1');
      expect(one.body.matches).to.have.length(1);
      expect(one.body.matches[0].slug).to.equal('acme-co');
    });

    it('answers 404 when no workspace has it, also for a malformed key (no 400 declared)', async () => {
      // spec: resolve_item "404 when none"; it declares "401, 403, 404 (no 400)"
      expect404(await api.get('/v1/items/APP-999'));
      expect404(await api.get('/v1/items/app-1'));
      expect404(await api.get('/v1/items/APP-0'));
    });
  });
});
