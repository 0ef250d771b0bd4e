/**
 * Access to every triage operation over real HTTP: no or a bad credential is 401, a non-member
 * gets exactly the body an unknown workspace gets, and a member who is not admin gets 403 on
 * update_product.
 */
import { expect } from 'chai';
import type { Api } from '../support/harness.js';
import { type Board, expectError, item, items, product, products, startBoard } from './board.js';

interface Call {
  id: string;
  send(api: Api, slug: string): ReturnType<Api['get']>;
}

/** Each workspace operation with a valid request, so only access decides the answer. */
const WORKSPACE_CALLS: Call[] = [
  { id: 'list_products', send: (api, slug) => api.get(products(slug)) },
  { id: 'update_product', send: (api, slug) => api.patch(product('APP', slug), { name: 'N' }) },
  { id: 'list_items', send: (api, slug) => api.get(items('APP', slug)) },
  { id: 'get_item', send: (api, slug) => api.get(item('APP-1', slug)) },
  { id: 'list_replies', send: (api, slug) => api.get(`${item('APP-1', slug)}/replies`) },
  { id: 'update_item', send: (api, slug) => api.patch(item('APP-1', slug), { title: 'T' }) },
  {
    id: 'update_item_status',
    send: (api, slug) => api.post(`${item('APP-1', slug)}/status`, { status: 'planned' }),
  },
  {
    id: 'merge_items',
    send: (api, slug) => api.post(`${item('APP-1', slug)}/merge`, { mergedKeys: ['APP-2'] }),
  },
  {
    id: 'reply_to_item',
    send: (api, slug) => api.post(`${item('APP-1', slug)}/replies`, { body: 'hi' }),
  },
  {
    id: 'tag_item',
    send: (api, slug) => api.post(`${item('APP-1', slug)}/tags`, { tagIds: ['ux'] }),
  },
];

const OTHER_CALLS: Call[] = [
  { id: 'resolve_item', send: (api) => api.get('/v1/items/APP-1') },
  {
    id: 'submit_feedback',
    send: (api, slug) => api.post(`/v1/public/${slug}/APP/feedback`, { body: 'Dark mode' }),
  },
];

describe('Triage access (e2e)', () => {
  let board: Board;

  before(async () => {
    board = await startBoard();
    const { fb, ws } = board;
    await fb.submit(ws, 'APP', { body: 'first', email: 'ann@x.io' });
    await fb.submit(ws, 'APP', { body: 'second', email: 'bo@x.io' });
  });
  after(() => board.fb.stop());

  describe('When a request carries no credential or an unusable one', () => {
    for (const call of [...WORKSPACE_CALLS, ...OTHER_CALLS]) {
      it(`${call.id} answers 401 unauthenticated`, async () => {
        // spec: "missing, invalid or expired credential; anonymous session" -> 401 unauthenticated
        expectError(await call.send(board.fb.api(), 'acme-co'), 401, 'unauthenticated');
        const forged = board.fb.api('rft_service_forged-value-that-was-never-issued');
        expectError(await call.send(forged, 'acme-co'), 401, 'unauthenticated');
      });
    }
  });

  describe('When the caller is not a member of the workspace', () => {
    for (const call of WORKSPACE_CALLS) {
      it(`${call.id} answers 404 with the same body as an unknown workspace`, async () => {
        // spec: "A non-member and an unknown slug both get HTTP 404, code not-found, with the
        // message for a missing workspace; existence is never revealed."
        const api = board.fb.api(board.outsider.token);
        const asOutsider = await call.send(api, 'acme-co');
        const unknown = await call.send(api, 'no-such-ws');
        expectError(asOutsider, 404, 'not-found');
        expect(asOutsider.body).to.deep.equal(unknown.body);
      });
    }

    it('resolve_item finds nothing in a workspace the caller does not belong to (404)', async () => {
      // spec: resolve_item "searches every workspace the caller belongs to; ... 404 when none"
      expectError(
        await board.fb.api(board.outsider.token).get('/v1/items/APP-1'),
        404,
        'not-found',
      );
    });
  });

  describe('When a member without the admin role calls an admin route', () => {
    it('update_product answers 403 permission-denied and changes nothing', async () => {
      // spec: "non-admin calling an admin route" -> 403 permission-denied
      const api = board.fb.api(board.member.token);
      expectError(await api.patch(product(), { name: 'Hijacked' }), 403, 'permission-denied');
      const listed = await api.get(products());
      expect(listed.body.items.map((p: { name: string }) => p.name)).to.include('Acme App');
    });

    it('every other triage operation is open to the member', async () => {
      const api = board.fb.api(board.member.token);
      for (const call of WORKSPACE_CALLS.filter((c) => c.id !== 'update_product')) {
        const res = await call.send(api, 'acme-co');
        expect(res.status, `${call.id}: ${JSON.stringify(res.body)}`).to.be.oneOf([200, 201]);
      }
    });
  });
});
