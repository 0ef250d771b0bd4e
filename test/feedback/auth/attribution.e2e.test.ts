/**
 * Attribution (spec "Attribution labels", issue 5 item 6): every write records its credential
 * label in the event metadata — `pat:<token name>` for a personal API token — and items captured
 * through a credential carry the same string as their own `via`.
 * (OAuth `api:<client name>` and the ID token's missing label: oauth-flow and id-tokens tests.)
 */
import { expect } from 'chai';
import {
  type FeedbackHarness,
  type Maker,
  type Workspace,
  startFeedback,
} from '../support/harness.js';

describe('Attribution of writes made with a personal API token (e2e)', () => {
  let fb: FeedbackHarness;
  let maker: Maker;
  let ws: Workspace;

  before(async () => {
    fb = await startFeedback();
    maker = await fb.createMaker('max@acme.io', 'release laptop');
    ws = await fb.createWorkspace(maker, { slug: 'acme-co', name: 'Acme' });
    await fb.createProduct(ws, { key: 'APP', name: 'App', visibility: 'public' });
  });
  after(() => fb.stop());

  it('labels a captured item and its event pat:<token name>', async () => {
    const api = fb.api(maker.token);
    const res = await api.post('/v1/public/acme-co/APP/feedback', { body: 'Bulk edit please' });
    expect(res.status).to.equal(200);
    const itemKey = res.body.itemId as string;
    const item = await api.get(`/v1/workspaces/acme-co/products/APP/items/${itemKey}`);
    expect(item.body.item.via).to.equal('pat:release laptop');
    // auditors read the label from the log
    const events = await fb.runtime.runtime.stores.eventStore.readStream(
      `item-${ws.workspaceId}.${itemKey}`,
    );
    expect(events.map((e) => [e.type, e.metadata.via, e.metadata.actor])).to.deep.equal([
      ['ItemCaptured', 'pat:release laptop', maker.userId],
    ]);
  });

  it('labels later changes to the item with the token that made them', async () => {
    const { itemKey } = await fb.submit(ws, 'APP', { body: 'Board-page item' });
    const second = await fb.createToken(maker.userId, { name: 'ci-bot' });
    const path = `/v1/workspaces/acme-co/products/APP/items/${itemKey}/status`;
    expect((await fb.api(second.token).post(path, { status: 'planned' })).status).to.equal(200);
    const events = await fb.runtime.runtime.stores.eventStore.readStream(
      `item-${ws.workspaceId}.${itemKey}`,
    );
    const changed = events.find((e) => e.type === 'ItemStatusChanged');
    expect(changed?.metadata.via).to.equal('pat:ci-bot');
    // the item captured on the board page itself has no via at all
    const item = await fb
      .api(maker.token)
      .get(`/v1/workspaces/acme-co/products/APP/items/${itemKey}`);
    expect(item.body.item).not.to.have.property('via');
  });

  it('labels token management itself', async () => {
    const res = await fb.api(maker.token).post('/v1/me/tokens', { name: 'made-by-pat' });
    const events = await fb.runtime.runtime.stores.eventStore.readStream(`token-${res.body.id}`);
    expect(events[0]?.metadata.via).to.equal('pat:release laptop');
    expect(JSON.stringify(events[0]?.data)).not.to.include(res.body.token);
  });
});
