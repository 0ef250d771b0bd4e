/**
 * OAuth 2.1 on the mounted feedback service, driven by openid-client (a certified relying-party
 * library): register -> authorize (sign-in form over HTTP, code from the dev mailbox) -> PKCE
 * code exchange -> call an operation -> refresh (rotated) -> reuse of the old refresh token
 * rejected and the grant revoked (RFC 9700 §4.14.2); a restart between code exchange and refresh;
 * connected apps; attribution of writes made with an access token.
 */
import { expect } from 'chai';
import {
  type FeedbackHarness,
  type Maker,
  type Workspace,
  startFeedback,
} from '../support/harness.js';
import { connectClient, oidc } from '../support/oauth.js';

const PRODUCTS = '/v1/workspaces/acme-co/products';

describe('OAuth access tokens on the feedback API (e2e)', () => {
  let fb: FeedbackHarness;
  let maker: Maker;
  let ws: Workspace;

  before(async () => {
    fb = await startFeedback({ fixedPort: true });
    maker = await fb.createMaker('max@acme.io');
    ws = await fb.createWorkspace(maker, { slug: 'acme-co', name: 'Acme' });
    await fb.createProduct(ws, { key: 'APP', name: 'App', visibility: 'public' });
  });
  after(() => fb.stop());

  describe('When a client goes through the whole flow', () => {
    it('calls the API, rotates its refresh token, and loses the grant on refresh-token reuse', async () => {
      const client = await connectClient(fb, { email: 'max@acme.io', name: 'Flow Client' });
      const first = await fb.api(client.accessToken).get(PRODUCTS);
      expect(first.status).to.equal(200);
      expect(first.body.items.map((p: { id: string }) => p.id)).to.deep.equal(['APP']);

      // spec: "Refresh token: rotates on each use"
      const refreshed = await oidc.refreshTokenGrant(client.config, client.refreshToken);
      expect(refreshed.refresh_token).to.be.a('string').and.not.equal(client.refreshToken);
      expect((await fb.api(refreshed.access_token).get(PRODUCTS)).status).to.equal(200);

      // reuse of the rotated token: rejected, and the whole grant is revoked
      const reuse = await oidc.refreshTokenGrant(client.config, client.refreshToken).then(
        () => null,
        (error: unknown) => error,
      );
      expect(reuse).to.be.instanceOf(oidc.ResponseBodyError);
      expect((reuse as oidc.ResponseBodyError).error).to.equal('invalid_grant');
      const successor = await oidc
        .refreshTokenGrant(client.config, refreshed.refresh_token as string)
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(successor).to.be.instanceOf(oidc.ResponseBodyError);
      const after = await fb.api(refreshed.access_token).get(PRODUCTS);
      expect(after.status).to.equal(401);
      expect(after.headers.get('www-authenticate')).to.include('error="invalid_token"');
    });

    it('keeps working across a restart between code exchange and refresh', async () => {
      const client = await connectClient(fb, { email: 'max@acme.io', name: 'Restart Client' });
      await fb.restart();
      // the access token issued before the restart is still good...
      expect((await fb.api(client.accessToken).get(PRODUCTS)).status).to.equal(200);
      // ...and so is the refresh token: clients and grants live in the read store
      const refreshed = await oidc.refreshTokenGrant(client.config, client.refreshToken);
      expect((await fb.api(refreshed.access_token).get(PRODUCTS)).status).to.equal(200);
    });
  });

  describe('When a client writes with an access token', () => {
    it('labels the item api:<client name> in the item and in the event metadata', async () => {
      // spec "Attribution labels": OAuth access token -> `api:<client name>`
      const client = await connectClient(fb, { email: 'max@acme.io', name: 'Claude Desktop' });
      const api = fb.api(client.accessToken);
      const submitted = await api.post('/v1/public/acme-co/APP/feedback', {
        body: 'Export to CSV would help',
      });
      expect(submitted.status).to.equal(200);
      const itemKey = submitted.body.itemId as string;
      const item = await api.get(`${PRODUCTS}/APP/items/${itemKey}`);
      expect(item.body.item.via).to.equal('api:Claude Desktop');

      const events = await fb.runtime.runtime.stores.eventStore.readStream(
        `item-${ws.workspaceId}.${itemKey}`,
      );
      expect(events[0]?.type).to.equal('ItemCaptured');
      expect(events[0]?.metadata.via).to.equal('api:Claude Desktop');
      expect(events[0]?.metadata.actor).to.equal(maker.userId);
    });

    it('posts replies as an agent carrying the client name', async () => {
      // spec "Reply": "A reply posted with an OAuth access token is recorded with authorKind
      // agent and carries the client's name."
      const { itemKey } = await fb.submit(ws, 'APP', { body: 'Dark mode', email: 'ann@c.io' });
      const client = await connectClient(fb, { email: 'max@acme.io', name: 'Triage Bot' });
      const replies = `${PRODUCTS}/APP/items/${itemKey}/replies`;
      const posted = await fb.api(client.accessToken).post(replies, { body: 'On our list!' });
      expect(posted.status).to.equal(200);
      const byPat = await fb.api(maker.token).post(replies, { body: 'Thanks, Ann' });
      expect(byPat.status).to.equal(200);
      const thread = (await fb.api(maker.token).get(replies)).body.items as {
        authorKind: string;
        authorName: string | null;
        authorId: string;
      }[];
      expect(thread.map((r) => [r.authorKind, r.authorName])).to.deep.equal([
        ['agent', 'Triage Bot'],
        ['maker', 'max'],
      ]);
      const events = await fb.runtime.runtime.stores.eventStore.readStream(
        `item-${ws.workspaceId}.${itemKey}`,
      );
      const vias = events.filter((e) => e.type === 'ItemReplied').map((e) => e.metadata.via);
      expect(vias).to.deep.equal(['api:Triage Bot', `pat:${maker.tokenName}`]);
    });
  });

  describe('When a user manages their connected apps', () => {
    it('lists the client and, once disconnected, its tokens stop at once', async () => {
      const client = await connectClient(fb, { email: 'max@acme.io', name: 'Disconnect Me' });
      const listed = await fb.api(maker.token).get('/v1/me/apps');
      expect(listed.status).to.equal(200);
      const app = listed.body.apps.find(
        (a: { clientId: string }) => a.clientId === client.clientId,
      );
      expect(app).to.include({ clientName: 'Disconnect Me' });
      // spec: "All timestamps are numbers" (ms, like every other timestamp of the API)
      expect(app.connectedAt)
        .to.be.a('number')
        .within(Date.now() - 600_000, Date.now());

      const revoked = await fb.api(maker.token).del(`/v1/me/apps/${client.clientId}`);
      expect(revoked.status).to.equal(204);
      expect((await fb.api(client.accessToken).get(PRODUCTS)).status).to.equal(401);
      const refresh = await oidc.refreshTokenGrant(client.config, client.refreshToken).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refresh).to.be.instanceOf(oidc.ResponseBodyError);
      // a repeat finds it disconnected and answers as the first (connected-app-repeat.e2e)
      const again = await fb.api(maker.token).del(`/v1/me/apps/${client.clientId}`);
      expect(again.status).to.equal(204);
    });
  });

  // last: it moves the service's clock on, past every token issued before
  describe('When an access token is an hour old', () => {
    it('is refused as expired: feedback access tokens live one hour', async () => {
      // README (Security, Tokens at rest): "Access tokens are short-lived signed JWTs (feedback 1 h ...)"
      const client = await connectClient(fb, { email: 'max@acme.io', name: 'Hourly' });
      expect(client.tokens.expires_in).to.equal(60 * 60);
      fb.clock.advance(59 * 60_000);
      expect((await fb.api(client.accessToken).get(PRODUCTS)).status).to.equal(200);
      fb.clock.advance(2 * 60_000);
      const expired = await fb.api(client.accessToken).get(PRODUCTS);
      expect(expired.status).to.equal(401);
      expect(expired.body.error).to.match(/expired/);
    });
  });
});
