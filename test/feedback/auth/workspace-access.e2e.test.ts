/**
 * Authorization model (spec "Authorization model") over real HTTP: live membership on every
 * workspace request, the identical 404 for a non-member and an unknown slug, admin-only routes.
 */
import { expect } from 'chai';
import {
  type FeedbackHarness,
  type Maker,
  type Workspace,
  startFeedback,
} from '../support/harness.js';

describe('Workspace access (e2e)', () => {
  let fb: FeedbackHarness;
  let owner: Maker;
  let ws: Workspace;

  before(async () => {
    fb = await startFeedback();
    owner = await fb.createMaker('owner@acme.io');
    ws = await fb.createWorkspace(owner, { slug: 'acme-co', name: 'Acme' });
    await fb.createProduct(ws, { key: 'APP', name: 'App', visibility: 'private' });
    await fb.submit(ws, 'APP', { body: 'Dark mode please', email: 'ann@customer.io' });
  });
  after(() => fb.stop());

  describe('When a maker of another workspace asks for this one', () => {
    it('answers the same 404 body as for a workspace that does not exist', async () => {
      // spec: "A non-member and an unknown slug both get HTTP 404, code not-found, with the
      // message for a missing workspace; existence is never revealed."
      const stranger = await fb.createMaker('eve@else.io');
      const paths = (slug: string) => [
        `/v1/workspaces/${slug}/products`,
        `/v1/workspaces/${slug}/products/APP/items`,
        `/v1/workspaces/${slug}/products/APP/items/APP-1`,
      ];
      const known = paths('acme-co');
      const unknown = paths('nobody-here');
      for (let i = 0; i < known.length; i++) {
        const a = await fb.api(stranger.token).get(known[i]!);
        const b = await fb.api(stranger.token).get(unknown[i]!);
        expect(a.status).to.equal(404);
        expect(a.body).to.deep.equal({ error: 'workspace not found', code: 'not-found' });
        expect(b.status).to.equal(a.status);
        expect(b.body).to.deep.equal(a.body);
      }
      // writes too, an admin route included
      const patchA = await fb
        .api(stranger.token)
        .patch('/v1/workspaces/acme-co/products/APP', { name: 'X' });
      const patchB = await fb
        .api(stranger.token)
        .patch('/v1/workspaces/nobody-here/products/APP', { name: 'X' });
      expect(patchA.status).to.equal(404);
      expect(patchB.body).to.deep.equal(patchA.body);
    });
  });

  describe('When membership changes', () => {
    it('applies an added membership, a role change and a removal on the next request', async () => {
      // spec: "Every workspace-touching request re-reads the caller's live membership record.
      // Removal or a role change applies on the next request."
      const joiner = await fb.createMaker('joe@acme.io');
      const products = '/v1/workspaces/acme-co/products';
      expect((await fb.api(joiner.token).get(products)).status).to.equal(404);
      await fb.addMember(ws, joiner.userId, 'member');
      expect((await fb.api(joiner.token).get(products)).status).to.equal(200);
      const rename = () =>
        fb.api(joiner.token).patch('/v1/workspaces/acme-co/products/APP', { name: 'Renamed' });
      expect((await rename()).status).to.equal(403);
      await fb.setRole(ws, joiner.userId, 'admin');
      expect((await rename()).status).to.equal(200);
      await fb.removeMember(ws, joiner.userId);
      const gone = await fb.api(joiner.token).get(products);
      expect(gone.status).to.equal(404);
      expect(gone.body).to.deep.equal({ error: 'workspace not found', code: 'not-found' });
    });
  });

  describe('When a member without admin calls an admin route', () => {
    it('answers 403 on update_product and lets an admin through', async () => {
      // spec: "Some routes require the admin role; a member without it gets 403."
      const member = await fb.createMaker('mo@acme.io');
      await fb.addMember(ws, member.userId, 'member');
      const path = '/v1/workspaces/acme-co/products/APP';
      const denied = await fb.api(member.token).patch(path, { visibility: 'public' });
      expect(denied.status).to.equal(403);
      expect(denied.body.code).to.equal('permission-denied');
      expect(denied.body).to.have.keys(['error', 'code']);
      // reading stays open to members
      expect((await fb.api(member.token).get('/v1/workspaces/acme-co/products')).status).to.equal(
        200,
      );
      const allowed = await fb.api(owner.token).patch(path, { name: 'App 2' });
      expect(allowed.status).to.equal(200);
    });

    it('documents the admin requirement in OpenAPI', async () => {
      const doc = (await fb.api().get('/v1/openapi.json')).body;
      const op = doc.paths['/v1/workspaces/{slug}/products/{key}'].patch;
      expect(op.operationId).to.equal('update_product');
      expect(op.description).to.include('admin');
      expect(op.responses).to.have.property('403');
    });
  });
});
