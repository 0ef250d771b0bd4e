/**
 * Issue 10 item 9: "an authorization request with no scope (or an empty one) ends in
 * error=access_denied after sign-in. The spec: 'default (no scope) = full maker surface'. Such a
 * token must reach the maker surface, reply as an agent with the client's name, capture items
 * via api:<client name>, and rotate its refresh token."
 */
import { expect } from 'chai';
import {
  authorizeOverHttp,
  CookieJar,
  errorSentBack,
  request,
} from '../../auth/support/browserless.js';
import { exchange, registerClient, startAuthorization } from '../../auth/support/client.js';
import { type FeedbackHarness, startFeedback, type Workspace } from '../support/harness.js';
import { oidc } from '../support/oauth.js';

const PRODUCTS = '/v1/workspaces/acme-co/products';

describe('When a client asks for no scope, or only for scopes the service does not know (e2e)', () => {
  let fb: FeedbackHarness;
  let ws: Workspace;
  before(async () => {
    fb = await startFeedback();
    const maker = await fb.createMaker('max@acme.io');
    ws = await fb.createWorkspace(maker, { slug: 'acme-co', name: 'Acme' });
    await fb.createProduct(ws, { key: 'APP', name: 'App', visibility: 'public' });
  });
  after(() => fb.stop());

  /** sign in with the scope parameter left out (undefined), empty ('') or as given */
  async function connect(scope: string | undefined, name: string) {
    const config = await registerClient(fb.url, { name });
    const pending = await startAuthorization(config, fb.url, scope ?? 'x');
    const url = new URL(pending.url);
    if (scope === undefined) url.searchParams.delete('scope');
    else url.searchParams.set('scope', scope);
    const callback = await authorizeOverHttp({
      authUrl: url.href,
      base: fb.url,
      email: 'max@acme.io',
      mailboxPath: fb.mailboxPath,
      jar: new CookieJar(),
    });
    expect(callback.searchParams.get('error'), 'authorization error').to.equal(null);
    return { config, tokens: await exchange(config, callback, pending) };
  }

  for (const [label, scope] of [
    ['no scope parameter', undefined],
    ['an empty scope', ''],
  ] as const) {
    it(`gets a full-maker-surface token with ${label}: reads, replies as agent, captures via api:<client>`, async () => {
      const name = `Scopeless ${label}`;
      const { config, tokens } = await connect(scope, name);
      // RFC 6749 §5.1: the full surface is what a request without a data scope asks for, so the
      // answer leaves `scope` out ("OPTIONAL, if identical to the scope requested"); `""` read as
      // "no scope granted"
      expect(tokens, 'the token answer').not.to.have.property('scope');
      const api = fb.api(tokens.access_token);
      expect((await api.get(PRODUCTS)).status).to.equal(200);

      const captured = await api.post('/v1/public/acme-co/APP/feedback', { body: `From ${label}` });
      expect(captured.status).to.be.oneOf([200, 201]);
      const itemKey = captured.body.itemId as string;
      const item = await api.get(`${PRODUCTS}/APP/items/${itemKey}`);
      expect(item.body.item.via).to.equal(`api:${name}`);

      const replied = await api.post(`${PRODUCTS}/APP/items/${itemKey}/replies`, { body: 'Noted' });
      expect(replied.status).to.equal(200);
      const replies = (await api.get(`${PRODUCTS}/APP/items/${itemKey}/replies`)).body.items;
      expect(
        replies.map((r: { authorKind: string; authorName: string }) => [
          r.authorKind,
          r.authorName,
        ]),
      ).to.deep.equal([['agent', name]]);

      // spec: "Refresh token | rotates on each use"
      const first = tokens.refresh_token as string;
      expect(first).to.be.a('string');
      const rotated = await oidc.refreshTokenGrant(config, first);
      expect(rotated.refresh_token).to.be.a('string').and.not.equal(first);
      expect(rotated, 'the refreshed answer').not.to.have.property('scope');
      expect((await fb.api(rotated.access_token).get(PRODUCTS)).status).to.equal(200);
    });
  }

  it('is sent back with invalid_scope before anyone signs in (RFC 6749 §4.1.2.1)', async () => {
    // notes audit: the user signed in, then the client got access_denied
    const config = await registerClient(fb.url, { name: 'Unknown scopes' });
    const pending = await startAuthorization(config, fb.url, 'items:read bogus');
    const jar = new CookieJar();
    let res = await request(jar, pending.url);
    // to the error: redirects, then (a client nobody approved, error-redirects.ts) the error
    // page, whose link back carries it
    for (let hop = 0; hop < 5 && res.headers.get('location')?.includes('/oauth/'); hop++) {
      res = await request(jar, new URL(res.headers.get('location') as string, fb.url).href);
    }
    const callback = await errorSentBack(res, fb.url);
    expect(callback.pathname).to.equal('/cb');
    expect(callback.searchParams.get('error')).to.equal('invalid_scope');
    expect(callback.searchParams.get('error_description')).to.match(/service\.public/);
    expect(callback.searchParams.get('code')).to.equal(null);
  });

  it('still ignores an unknown scope beside a known one', async () => {
    const { tokens } = await connect('bogus service.public', 'Mixed scopes');
    expect(tokens.scope?.split(' ')).to.include('service.public').and.not.include('bogus');
  });
});
