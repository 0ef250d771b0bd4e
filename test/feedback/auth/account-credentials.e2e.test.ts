/**
 * Who may manage a maker's personal API tokens and connected apps (/v1/me) and a workspace's
 * integration credentials, over real HTTP and over the hosted MCP server, with OAuth tokens from
 * the real authorization-code flow.
 *
 * A connected OAuth app must not mint a personal token: the token would keep working after the
 * user disconnects the app. Nor may it list or revoke the user's tokens and apps. The maker's own
 * credentials — a personal API token, the board's ID token — keep managing them.
 */
import { expect } from 'chai';
import { type FeedbackHarness, type Maker, startFeedback } from '../support/harness.js';
import { connectClient, firstPartySignIn } from '../support/oauth.js';
import { callTool, connectMcp, envelopeOf } from '../../mcp/support.js';

const TOKENS = '/v1/me/tokens';
const APPS = '/v1/me/apps';
const ACCOUNT_TOOLS = [
  'create_api_token',
  'list_api_tokens',
  'list_connected_apps',
  'revoke_api_token',
  'revoke_connected_app',
];

describe('Personal API tokens and connected apps from an OAuth app (e2e)', function () {
  this.timeout(60_000);
  let fb: FeedbackHarness;
  let maker: Maker;

  before(async () => {
    fb = await startFeedback();
    maker = await fb.createMaker('max@acme.io', 'laptop');
  });
  after(() => fb.stop());
  const products = () => `/v1/workspaces/${maker.home.slug}/products`;

  const expect403 = (res: { status: number; body: { code?: string } }) => {
    expect(res.status, JSON.stringify(res.body)).to.equal(403);
    expect(res.body.code).to.equal('permission-denied');
  };

  describe('When a connected app calls the account routes with its access token', () => {
    it('refuses to mint a personal token, so nothing it made outlives its disconnection', async () => {
      // spec "Personal API tokens": "Created in product settings (under API tokens)"; "Only
      // makers can create one"
      const app = await connectClient(fb, { email: maker.email, name: 'Token Minter' });
      const asApp = fb.api(app.accessToken);
      expect((await asApp.get(products())).status, 'the token itself works').to.equal(200);

      expect403(await asApp.post(TOKENS, { name: 'from-oauth' }));

      const disconnected = await fb.api(maker.token).del(`${APPS}/${app.clientId}`);
      expect(disconnected.status).to.equal(204);
      const left = await fb.api(maker.token).get(TOKENS);
      expect(left.body.tokens.map((t: { name: string }) => t.name)).to.deep.equal(['laptop']);
    });

    it("refuses to list or revoke the user's tokens and to list or disconnect apps", async () => {
      const app = await connectClient(fb, { email: maker.email, name: 'Nosy App' });
      const other = await connectClient(fb, { email: maker.email, name: 'Other App' });
      const asApp = fb.api(app.accessToken);
      expect403(await asApp.get(TOKENS));
      expect403(await asApp.del(`${TOKENS}/${maker.tokenId}`));
      expect403(await asApp.get(APPS));
      expect403(await asApp.del(`${APPS}/${other.clientId}`));
      // nothing happened: the maker's token and the other app still work
      expect((await fb.api(maker.token).get(TOKENS)).status).to.equal(200);
      expect((await fb.api(other.accessToken).get(products())).status).to.equal(200);
    });
  });

  describe('When a connected app of a workspace admin manages integration credentials', () => {
    it('refuses to create, list or revoke them: an rfi_ credential it made would outlive it', async () => {
      // an integration credential "belongs to the workspace, not to a person" (README): made by
      // an app, it would keep the app's access after the admin disconnected it
      const integrations = `/v1/workspaces/${maker.home.slug}/integrations`;
      const app = await connectClient(fb, { email: maker.email, name: 'Integration Minter' });
      const asApp = fb.api(app.accessToken);
      expect403(await asApp.post(integrations, { name: 'agent-made' }));
      expect403(await asApp.get(integrations));
      const own = await fb.api(maker.token).post(integrations, { name: 'by-the-admin' });
      expect(own.status, JSON.stringify(own.body)).to.equal(201);
      expect403(await asApp.del(`${integrations}/${own.body.integration.id}`));
      const listed = await fb.api(maker.token).get(integrations);
      expect(listed.body.items.map((i: { name: string }) => i.name)).to.deep.equal([
        'by-the-admin',
      ]);
    });
  });

  describe('When the maker uses their own credentials', () => {
    it('creates, lists and revokes tokens and manages apps with a personal token or the board ID token', async () => {
      const byPat = await fb.api(maker.token).post(TOKENS, { name: 'by-pat' });
      expect(byPat.status, JSON.stringify(byPat.body)).to.equal(201);
      expect(byPat.body.token).to.match(/^rft_service_/);

      const { id_token: idToken } = await firstPartySignIn(fb, maker.email);
      const asBoard = fb.api(idToken!);
      const byIdToken = await asBoard.post(TOKENS, { name: 'by-id-token' });
      expect(byIdToken.status, JSON.stringify(byIdToken.body)).to.equal(201);
      expect((await asBoard.get(APPS)).status).to.equal(200);
      expect((await asBoard.del(`${TOKENS}/${byPat.body.id}`)).status).to.equal(204);
    });
  });

  describe('When a connected app uses the hosted MCP server', () => {
    it('does not list the account tools, and calling one answers the 403 REST answers', async () => {
      const app = await connectClient(fb, { email: maker.email, name: 'MCP Agent' });
      const session = await connectMcp(`${fb.url}/mcp`, { token: app.accessToken });
      try {
        const { tools } = await session.client.listTools();
        const names = tools.map((t) => t.name);
        expect(names).to.include('list_items');
        expect(names.filter((n) => ACCOUNT_TOOLS.includes(n))).to.deep.equal([]);
        const refused = await callTool(session, 'create_api_token', { name: 'from-mcp' });
        const rest = await fb.api(app.accessToken).post(TOKENS, { name: 'from-rest' });
        expect403(rest);
        expect(envelopeOf(refused)).to.deep.equal(rest.body);
      } finally {
        await session.close();
      }
      const own = await connectMcp(`${fb.url}/mcp`, { token: maker.token });
      try {
        const { tools } = await own.client.listTools();
        expect(tools.map((t) => t.name)).to.include.members(ACCOUNT_TOOLS);
      } finally {
        await own.close();
      }
    });
  });
});
