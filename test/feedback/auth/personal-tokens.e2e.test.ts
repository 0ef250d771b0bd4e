/**
 * Personal API tokens over real HTTP: every way a bearer can fail is a 401 with the envelope
 * and a WWW-Authenticate pointing at the protected-resource metadata; revocation and expiry
 * apply on the very next request; the token routes create (value once), list (never values)
 * and revoke.
 */
import { expect } from 'chai';
import { type FeedbackHarness, type Maker, startFeedback } from '../support/harness.js';

const TOKENS = '/v1/me/tokens';

describe('Personal API tokens (e2e)', () => {
  let fb: FeedbackHarness;
  let maker: Maker;

  before(async () => {
    fb = await startFeedback();
    maker = await fb.createMaker('max@acme.io');
  });
  after(() => fb.stop());

  function expect401(res: { status: number; headers: Headers; body: unknown }, error?: string) {
    expect(res.status).to.equal(401);
    expect(res.body).to.have.keys(['error', 'code']);
    expect((res.body as { code: string }).code).to.equal('unauthenticated');
    const challenge = res.headers.get('www-authenticate') ?? '';
    // issue 5 item 7: "a WWW-Authenticate header with resource_metadata on every 401"
    expect(challenge).to.match(/^Bearer /);
    expect(challenge).to.include(
      `resource_metadata="${fb.url}/.well-known/oauth-protected-resource"`,
    );
    if (error) expect(challenge).to.include(`error="${error}"`);
    else expect(challenge).not.to.include('error=');
  }

  describe('When a request carries no usable credential', () => {
    it('answers 401 without a token, with a bare challenge', async () => {
      expect401(await fb.api().get(TOKENS));
    });

    it('answers 401 invalid_token for an unknown rft_service_ value', async () => {
      expect401(await fb.api('rft_service_not-a-real-token').get(TOKENS), 'invalid_token');
    });

    it('answers 401 for garbage that is neither a token nor a JWT', async () => {
      expect401(await fb.api('hello-world').get(TOKENS), 'invalid_token');
    });

    it('answers 401 invalid_request for a non-Bearer Authorization header', async () => {
      const res = await fb
        .api()
        .get(TOKENS, { headers: { authorization: `Basic ${maker.token}` } });
      expect401(res, 'invalid_request');
    });

    it('serves the protected-resource metadata the challenge points to', async () => {
      const res = await fb.api().get('/.well-known/oauth-protected-resource');
      expect(res.status).to.equal(200);
      expect(res.body.resource).to.equal(fb.url);
      expect(res.body.authorization_servers).to.deep.equal([fb.url]);
      expect(res.body.scopes_supported).to.include('service.public');
    });
  });

  describe('When a token is revoked', () => {
    it('works until revoked and is refused on the very next request', async () => {
      // spec: "Revocation takes effect at once (each request looks the token up live)."
      const { token, tokenId } = await fb.createToken(maker.userId, { name: 'ci' });
      expect((await fb.api(token).get(TOKENS)).status).to.equal(200);
      const revoked = await fb.api(maker.token).del(`${TOKENS}/${tokenId}`);
      expect(revoked.status).to.equal(204);
      expect401(await fb.api(token).get(TOKENS), 'invalid_token');
      // the other token of the same maker is untouched
      expect((await fb.api(maker.token).get(TOKENS)).status).to.equal(200);
    });

    it('lets a token revoke itself, effective for its next request', async () => {
      const { token, tokenId } = await fb.createToken(maker.userId, { name: 'self' });
      expect((await fb.api(token).del(`${TOKENS}/${tokenId}`)).status).to.equal(204);
      expect401(await fb.api(token).get(TOKENS), 'invalid_token');
    });

    it("answers 404 for another maker's token and leaves it working", async () => {
      const other = await fb.createMaker('eve@else.io');
      const res = await fb.api(maker.token).del(`${TOKENS}/${other.tokenId}`);
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal({ error: 'token not found', code: 'not-found' });
      expect((await fb.api(other.token).get(TOKENS)).status).to.equal(200);
    });
  });

  describe('When a token expires', () => {
    it('works before its expiry and answers 401 from then on', async () => {
      // spec: "An expired token stops working at its expiry."
      const expiresAt = fb.clock.now() + 60_000;
      const { token } = await fb.createToken(maker.userId, { name: 'short', expiresAt });
      expect((await fb.api(token).get(TOKENS)).status).to.equal(200);
      fb.clock.advance(60_000);
      const res = await fb.api(token).get(TOKENS);
      expect401(res, 'invalid_token');
      expect(res.body.error).to.equal('API token expired');
    });
  });

  describe('When a maker creates a token over the API', () => {
    it('shows the value once, and the new token authenticates', async () => {
      const res = await fb.api(maker.token).post(TOKENS, { name: 'script' });
      expect(res.status).to.equal(201);
      expect(res.body.token).to.match(/^rft_service_[A-Za-z0-9_-]{43}$/);
      expect(res.body).to.include({ name: 'script', expiresAt: null });
      expect(res.headers.get('cache-control')).to.equal('no-store');
      expect((await fb.api(res.body.token).get(TOKENS)).status).to.equal(200);
    });

    it('lists tokens without values or hashes', async () => {
      const created = await fb.api(maker.token).post(TOKENS, { name: 'listed' });
      const res = await fb.api(maker.token).get(TOKENS);
      expect(res.status).to.equal(200);
      const listed = res.body.tokens.find((t: { id: string }) => t.id === created.body.id);
      expect(listed).to.have.keys(['id', 'name', 'expiresAt', 'createdAt', 'revoked', 'revokedAt']);
      expect(JSON.stringify(res.body)).not.to.include('rft_service_');
      expect(JSON.stringify(res.body)).not.to.include('hash');
    });

    it('accepts names of 1 and 100 characters and refuses 0 and 101', async () => {
      const api = fb.api(maker.token);
      expect((await api.post(TOKENS, { name: 'a' })).status).to.equal(201);
      expect((await api.post(TOKENS, { name: 'n'.repeat(100) })).status).to.equal(201);
      for (const name of ['', 'n'.repeat(101)]) {
        const res = await api.post(TOKENS, { name });
        expect(res.status).to.equal(400);
        expect(res.body.code).to.equal('invalid-argument');
      }
    });

    it('refuses an expiry in the past, unknown fields and a missing name', async () => {
      const api = fb.api(maker.token);
      const past = await api.post(TOKENS, { name: 'old', expiresAt: fb.clock.now() - 1 });
      expect(past.status).to.equal(400);
      expect(past.body).to.deep.equal({
        error: 'expiresAt must be in the future',
        code: 'invalid-argument',
      });
      expect((await api.post(TOKENS, { name: 'x', scope: 'all' })).status).to.equal(400);
      expect((await api.post(TOKENS, {})).status).to.equal(400);
    });

    it('stores an expiry in the future and lists it', async () => {
      const expiresAt = fb.clock.now() + 86_400_000;
      const res = await fb.api(maker.token).post(TOKENS, { name: 'dated', expiresAt });
      expect(res.status).to.equal(201);
      expect(res.body.expiresAt).to.equal(expiresAt);
    });
  });

  describe('When a maker loses their last workspace', () => {
    it('refuses token creation with 403 while existing tokens keep authenticating', async () => {
      // spec: "Only makers can create one; ... an account with no workspace is refused."
      const acme = await fb.createWorkspace(maker, { slug: 'acme-co', name: 'Acme' });
      const former = await fb.createUser('gone@acme.io');
      await fb.addMember(acme, former.userId, 'member');
      const { token } = await fb.createToken(former.userId, { name: 'before' });
      expect((await fb.api(token).post(TOKENS, { name: 'while-member' })).status).to.equal(201);
      await fb.removeMember(acme, former.userId);
      const res = await fb.api(token).post(TOKENS, { name: 'again' });
      expect(res.status).to.equal(403);
      expect(res.body.code).to.equal('permission-denied');
      expect((await fb.api(token).get(TOKENS)).status).to.equal(200);
    });
  });
});
