/**
 * Which credential made a change, beside its label (README "History, as-of, audit trail"):
 * spec "Attribution labels" names a personal API token `pat:<token name>` and an OAuth client
 * `api:<client name>`, but two of a maker's tokens may share a name, and registration is open —
 * any app may call itself "Claude". An auditor who finds a change made through a lost token or a
 * lookalike app must be able to tell which one it was (and revoke that one), so every Change
 * carries the credential's own id: the token's `id` (list_api_tokens), the app's `clientId`
 * (list_connected_apps), the integration credential's `id`.
 */
import { expect } from 'chai';
import { connectClient } from '../support/oauth.js';
import { type FeedbackHarness, type Maker, startFeedback } from '../support/harness.js';

const SLUG = 'acme-co';
const ITEM = `/v1/workspaces/${SLUG}/products/APP/items`;

interface ChangeBody {
  type: string;
  itemKey: string | null;
  via?: string;
  credentialId?: string;
  summary: string;
}

describe('When changes are made through credentials that share a name (e2e)', function () {
  this.timeout(60_000);
  let fb: FeedbackHarness;
  let owner: Maker;
  let secondToken: { tokenId: string; token: string };
  let apps: { clientId: string; accessToken: string }[];
  let integration: { id: string; credential: string };

  before(async () => {
    fb = await startFeedback();
    owner = await fb.createMaker('max@acme.io', 'laptop');
    const ws = await fb.createWorkspace(owner, { slug: SLUG, name: 'Acme' });
    await fb.createProduct(ws, { key: 'APP', name: 'Acme App', visibility: 'public' });
    await fb.submit(ws, 'APP', { body: 'Dark mode please', email: 'ann@customer.io' });
    secondToken = await fb.createToken(owner.userId, { name: 'laptop' });
    apps = [
      await connectClient(fb, { email: 'max@acme.io', name: 'Claude' }),
      await connectClient(fb, { email: 'max@acme.io', name: 'Claude' }),
    ];
    const minted = await fb.api(owner.token).post(`/v1/workspaces/${SLUG}/integrations`, {
      name: 'Zendesk sync',
    });
    expect(minted.status, JSON.stringify(minted.body)).to.equal(201);
    integration = { id: minted.body.integration.id, credential: minted.body.credential };
    const statuses = ['planned', 'in-progress', 'shipped', 'declined', 'new'];
    const tokens = [
      owner.token,
      secondToken.token,
      apps[0]!.accessToken,
      apps[1]!.accessToken,
      integration.credential,
    ];
    for (const [i, token] of tokens.entries()) {
      const res = await fb.api(token).post(`${ITEM}/APP-1/status`, { status: statuses[i] });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    }
  });
  after(() => fb.stop());

  const statusChanges = (changes: ChangeBody[]) =>
    changes
      .filter((c) => c.type === 'ItemStatusChanged')
      .map(({ via, credentialId }) => ({ via, credentialId }));

  const expected = () => [
    { via: 'pat:laptop', credentialId: owner.tokenId },
    { via: 'pat:laptop', credentialId: secondToken.tokenId },
    { via: 'api:Claude', credentialId: apps[0]!.clientId },
    { via: 'api:Claude', credentialId: apps[1]!.clientId },
    { via: 'integration:Zendesk sync', credentialId: integration.id },
  ];

  it('names in the item history the token, app or integration each change came through', async () => {
    const res = await fb.api(owner.token).get(`${ITEM}/APP-1/history`);
    expect(res.status).to.equal(200);
    expect(statusChanges(res.body.items)).to.deep.equal(expected());
    // the ids are those the owner's own listings show, so the right one can be revoked
    const listed = (await fb.api(owner.token).get('/v1/me/tokens')).body.tokens.map(
      (t: { id: string }) => t.id,
    );
    expect(listed).to.include.members([owner.tokenId, secondToken.tokenId]);
    const connected = (await fb.api(owner.token).get('/v1/me/apps')).body.apps.map(
      (a: { clientId: string }) => a.clientId,
    );
    expect(connected).to.include.members(apps.map((a) => a.clientId));
  });

  it('names them the same way in the audit trail, and none where no credential was used', async () => {
    const res = await fb.api(owner.token).get(`/v1/workspaces/${SLUG}/audit?pageSize=200`);
    expect(res.status).to.equal(200);
    const trail = res.body.items as ChangeBody[];
    expect(statusChanges(trail).reverse()).to.deep.equal(expected());
    // the capture was seeded without a credential (as a board visitor files)
    const capture = trail.find((c) => c.type === 'ItemCaptured')!;
    expect(capture).not.to.have.property('credentialId');
  });

  it('filters the audit trail by credential, where via matches every app of that name', async () => {
    const audit = (query: string) =>
      fb.api(owner.token).get(`/v1/workspaces/${SLUG}/audit?pageSize=200&${query}`);
    const byLabel = await audit(`via=${encodeURIComponent('api:Claude')}`);
    expect(statusChanges(byLabel.body.items)).to.have.length(2);
    const byApp = await audit(`credentialId=${encodeURIComponent(apps[1]!.clientId)}`);
    expect(byApp.status, JSON.stringify(byApp.body)).to.equal(200);
    expect(statusChanges(byApp.body.items)).to.deep.equal([expected()[3]]);
    const byToken = await audit(`credentialId=${secondToken.tokenId}&type=ItemStatusChanged`);
    expect(statusChanges(byToken.body.items)).to.deep.equal([expected()[1]]);
    // a credential no change of the workspace came through: 404, as an unknown actorId
    const unknown = await audit('credentialId=t-no-such-token');
    expect(unknown.status).to.equal(404);
    expect(unknown.body).to.deep.equal({
      error: 'no change of this workspace came through that credential',
      code: 'not-found',
    });
  });
});
