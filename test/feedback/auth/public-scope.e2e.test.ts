/**
 * The `service.public` scope (spec "OAuth 2.1", rule 2): such a token may call submit_feedback
 * and get_public_roadmap only — and list_public_changelog, which issue 12 adds to the public
 * surface ("public-scope tokens may call it"); every other operation of the registry answers 403
 * permission-denied with `WWW-Authenticate: Bearer error="insufficient_scope"` — even for a
 * workspace admin. The token is obtained through the real flow with openid-client.
 */
import { expect } from 'chai';
import { type FeedbackHarness, type Maker, startFeedback } from '../support/harness.js';
import { type ConnectedClient, connectClient, oidc } from '../support/oauth.js';

/** a concrete URL for an OpenAPI path, with values that would be valid for an admin */
function concrete(path: string): string {
  const values: Record<string, string> = {
    slug: 'acme-co',
    key: 'APP',
    itemKey: 'APP-1',
    personId: 'p1',
    tokenId: 't1',
    clientId: 'c1',
  };
  return path.replace(/\{(\w+)\}/g, (_m, name: string) => values[name] ?? 'x1');
}

describe('service.public-scoped tokens (e2e)', () => {
  let fb: FeedbackHarness;
  let admin: Maker;
  let publicToken: string;
  let client: ConnectedClient;

  before(async () => {
    fb = await startFeedback();
    admin = await fb.createMaker('admin@acme.io');
    const ws = await fb.createWorkspace(admin, { slug: 'acme-co', name: 'Acme' });
    await fb.createProduct(ws, { key: 'APP', name: 'App', visibility: 'public' });
    await fb.submit(ws, 'APP', { body: 'first item', email: 'ann@c.io' });
    client = await connectClient(fb, {
      email: 'admin@acme.io',
      scope: 'openid service.public',
      name: 'Public Helper',
    });
    publicToken = client.accessToken;
  });
  after(() => fb.stop());

  describe('When the token calls an operation outside the public surface', () => {
    it('answers 403 insufficient_scope on every such operation of the registry, even for an admin', async () => {
      const routes = fb.app().http.listRoutes();
      const refused = routes.filter((r) => {
        const op = fb.app().http.openapi.paths?.[r.path]?.[r.method];
        return (
          op &&
          !['submit_feedback', 'get_public_roadmap', 'list_public_changelog'].includes(
            r.operationId,
          )
        );
      });
      expect(refused.length).to.be.greaterThan(5);
      for (const route of refused) {
        const api = fb.api(publicToken);
        const url = concrete(route.path);
        const res =
          route.method === 'get'
            ? await api.get(url)
            : route.method === 'delete'
              ? await api.del(url)
              : await api[route.method](url, {});
        expect(res.status, route.operationId).to.equal(403);
        expect(res.body, route.operationId).to.deep.equal({
          error: res.body.error,
          code: 'permission-denied',
        });
        expect(res.headers.get('www-authenticate'), route.operationId).to.equal(
          'Bearer error="insufficient_scope"',
        );
      }
      // the same admin with a personal token reaches them
      expect((await fb.api(admin.token).get('/v1/workspaces/acme-co/products')).status).to.equal(
        200,
      );
    });
  });

  describe('When the token submits feedback', () => {
    it('is allowed, and the item is labelled with the client', async () => {
      const res = await fb
        .api(publicToken)
        .post('/v1/public/acme-co/APP/feedback', { body: 'Please add an API for exports' });
      expect(res.status).to.equal(200);
      const item = await fb
        .api(admin.token)
        .get(`/v1/workspaces/acme-co/products/APP/items/${res.body.itemId}`);
      expect(item.body.item.via).to.equal('api:Public Helper');
    });
  });

  describe('When the app refreshes asking for a narrower scope', () => {
    it('still holds only the public surface: a narrowed token never drops service.public', async () => {
      // RFC 6749 §6 lets a refresh narrow the scope; a token issued for "openid" alone carried
      // no resource scope, and no scope means the full maker surface (spec rule 2). The user
      // granted "post feedback and read public roadmaps (nothing else)": every token of that
      // grant keeps the restriction.
      const narrowed = await oidc.refreshTokenGrant(client.config, client.refreshToken, {
        scope: 'openid',
      });
      const api = fb.api(narrowed.access_token);
      const people = await api.get('/v1/workspaces/acme-co/people');
      expect(people.status).to.equal(403);
      expect(people.headers.get('www-authenticate')).to.equal('Bearer error="insufficient_scope"');
      const hook = await api.post('/v1/workspaces/acme-co/webhooks', {
        url: 'https://example.com/hook',
      });
      expect(hook.status).to.equal(403);
      // what it was granted still works
      const filed = await api.post('/v1/public/acme-co/APP/feedback', { body: 'still allowed' });
      expect(filed.status).to.equal(200);
    });
  });
});
