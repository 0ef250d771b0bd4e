/**
 * get_public_roadmap over real HTTP. The spec leaves its response "not shown"; ours is
 * `{product: {id, name}, columns: {planned, in-progress, shipped}}` of public item summaries
 * (src/feedback/http/public/roadmap.ts).
 */
import { expect } from 'chai';
import type { Api } from '../support/harness.js';
import { connectClient } from '../support/oauth.js';
import {
  type Board,
  expect404,
  expectError,
  item,
  seedItems,
  startBoard,
} from '../triage/board.js';

const roadmap = (slug = 'acme-co', key = 'APP') => `/v1/public/${slug}/${key}/roadmap`;

describe('get_public_roadmap (e2e)', () => {
  let board: Board;
  let owner: Api;
  let outsider: Api;
  let keys: string[];

  before(async () => {
    board = await startBoard();
    owner = board.fb.api(board.owner.token);
    outsider = board.fb.api(board.outsider.token);
    keys = await seedItems(board, 5);
    // the duplicate comes from another person, who becomes a +1 on the survivor when merged
    const dup = await outsider.post('/v1/public/acme-co/APP/feedback', {
      body: 'Same as the first',
    });
    expect(dup.status).to.equal(200);
    keys.push(dup.body.itemId);
    // `wanted` is older than `planned`: only its +1 can put it first (ties go newest first)
    const [wanted, planned, building, shippedEarly, shippedLate, merged] = keys as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const status = async (key: string, value: string) =>
      expect((await owner.post(`${item(key)}/status`, { status: value })).status).to.equal(200);
    await status(planned, 'planned');
    await status(wanted, 'planned');
    await status(building, 'in-progress');
    await status(shippedEarly, 'shipped');
    board.fb.clock.advance(60_000);
    await status(shippedLate, 'shipped');
    await status(merged, 'planned');
    const res = await owner.post(`${item(wanted)}/merge`, { mergedKeys: [merged] });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  });
  after(() => board.fb.stop());

  describe('When anyone with a valid token reads a public product', () => {
    it('answers its planned, in-progress and shipped items, most wanted and newest shipped first', async () => {
      // spec Public: "These need a valid bearer token but no workspace membership"
      const [wanted, planned, building, shippedEarly, shippedLate, merged] = keys;
      const res = await outsider.get(roadmap());
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.product).to.deep.equal({ id: 'APP', name: 'Acme App' });
      const ids = (column: string) => res.body.columns[column].map((e: { id: string }) => e.id);
      expect(ids('planned')).to.deep.equal([wanted, planned]);
      expect(ids('in-progress')).to.deep.equal([building]);
      expect(ids('shipped')).to.deep.equal([shippedLate, shippedEarly]);
      // merged items live on in their survivor and leave every listing
      expect(JSON.stringify(res.body)).not.to.include(`"${merged}"`);
      expect(res.body.columns.planned[0]).to.deep.equal({
        id: wanted,
        title: 'Seeded feedback number 0',
        status: 'planned',
        plusOneCount: 1,
        statusChangedAt: res.body.columns.planned[0].statusChangedAt,
      });
      expect(res.body.columns.planned[0].statusChangedAt).to.be.a('number');
    });

    it('accepts a service.public token, one of the two operations it may call', async () => {
      // spec: "the only operations a token with the service.public scope may call"
      const client = await connectClient(board.fb, {
        email: 'outsider@else.io',
        scope: 'openid service.public',
      });
      const res = await board.fb.api(client.accessToken).get(roadmap());
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.columns.shipped).to.have.length(2);
    });
  });

  describe('When the product is private or does not exist', () => {
    it('answers 404 outside the workspace exactly as for an unknown address', async () => {
      // spec visibility private: "the product's page, roadmap and changelog answer 404 to everyone outside the workspace"
      const hidden = await outsider.get(roadmap('acme-co', 'SEC'));
      expect404(hidden);
      expect((await outsider.get(roadmap('nope-co', 'APP'))).body).to.deep.equal(hidden.body);
      expect((await outsider.get(roadmap('acme-co', 'ZZZ'))).body).to.deep.equal(hidden.body);
    });

    it('shows a private product to its members, but never to their service.public tokens', async () => {
      // spec: "Membership never widens such a token"
      const own = await owner.get(roadmap('acme-co', 'SEC'));
      expect(own.status).to.equal(200);
      expect(own.body.product).to.deep.equal({ id: 'SEC', name: 'Secret' });
      const narrow = await connectClient(board.fb, {
        email: 'owner@acme.io',
        scope: 'openid service.public',
      });
      expect404(await board.fb.api(narrow.accessToken).get(roadmap('acme-co', 'SEC')));
    });
  });

  describe('When the request is not acceptable', () => {
    it('answers 401 without a token and the one 404 of the public surface for a malformed address', async () => {
      // spec Authentication: "Every request carries Authorization: Bearer <token>"
      expectError(await board.fb.api().get(roadmap()), 401, 'unauthenticated');
      // issue 10 item 12: a malformed address names nothing, like an unknown one
      for (const [slug, key] of [
        ['acme-co', 'app'],
        ['-acme', 'APP'],
      ]) {
        const res = await outsider.get(roadmap(slug, key));
        expectError(res, 404, 'not-found');
        expect(res.body.error).to.equal('no public product at this address');
      }
    });
  });
});
