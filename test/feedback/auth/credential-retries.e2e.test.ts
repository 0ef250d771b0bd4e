/**
 * Retrying the creation of a credential with the same Idempotency-Key. The OpenAPI document
 * promises every write that "the same key on the same resource returns the first result instead
 * of writing again". A personal API token's and an integration credential's value is shown once
 * and kept only as a hash, so the first answer cannot be repeated: the retry is refused with 409
 * naming what the first attempt created, and no second credential exists that the client would
 * not know it holds.
 */
import { expect } from 'chai';
import { type FeedbackHarness, type Maker, startFeedback } from '../support/harness.js';

describe('Retrying credential creation with an Idempotency-Key (e2e)', () => {
  let fb: FeedbackHarness;
  let maker: Maker;

  before(async () => {
    fb = await startFeedback();
    maker = await fb.createMaker('max@acme.io', 'laptop');
  });
  after(() => fb.stop());
  const keyed = (key: string) => ({ headers: { 'idempotency-key': key } });

  it('create_api_token: the retry gets 409 naming the token, and only one token exists', async () => {
    const api = fb.api(maker.token);
    const first = await api.post('/v1/me/tokens', { name: 'ci' }, keyed('token-1'));
    expect(first.status, JSON.stringify(first.body)).to.be.oneOf([200, 201]);
    const retry = await api.post('/v1/me/tokens', { name: 'ci' }, keyed('token-1'));
    expect(retry.status).to.equal(409);
    expect(retry.body.error).to.match(/the token t[0-9a-f]{32}/);
    expect(retry.body.error).to.include('shown only once');
    const listed = await api.get('/v1/me/tokens');
    expect(listed.body.tokens.map((t: { name: string }) => t.name)).to.have.members([
      'laptop',
      'ci',
    ]);
    // the same key for another request is refused as ever
    const other = await api.post('/v1/me/tokens', { name: 'other' }, keyed('token-1'));
    expect(other.status).to.equal(409);
    expect(other.body.error).to.include('different request');
  });

  it('create_integration: the retry gets 409 naming the integration, and only one exists', async () => {
    const integrations = `/v1/workspaces/${maker.home.slug}/integrations`;
    const api = fb.api(maker.token);
    const first = await api.post(integrations, { name: 'zap' }, keyed('int-1'));
    expect(first.status, JSON.stringify(first.body)).to.equal(201);
    const retry = await api.post(integrations, { name: 'zap' }, keyed('int-1'));
    expect(retry.status).to.equal(409);
    expect(retry.body.error).to.include(first.body.integration.id);
    const listed = await api.get(integrations);
    expect(listed.body.items).to.have.length(1);
  });
});
