/**
 * What the OAuth endpoints that write answer while the data file cannot grow (disk full). The
 * token, registration and revocation endpoints answered oidc-provider's `500 server_error` (or,
 * for an access token, a 200 whose revocation no restart kept); the authorization endpoint, the
 * sign-in pages and a registration refused by its rate limit's write answered the REST envelope
 * of the service (`{"error": "...", "code": "resource-exhausted"}`).
 *
 * README (Security): "While the store refuses writes (a full disk, a lost MongoDB), every OAuth
 * endpoint answers 503 with `Retry-After` and the OAuth error `temporarily_unavailable` (RFC 6749
 * §4.1.2.1): as JSON […] at the token, registration, revocation and PAR endpoints, on the error
 * page at `/oauth/authorize` and the sign-in and consent pages"; "A revocation the store did not
 * keep is not answered 200."
 */
import { expect } from 'chai';
import { FEEDBACK_OAUTH_PREFIX } from '../../src/feedback/auth/settings.js';
import { type FeedbackHarness, startFeedback } from '../feedback/support/harness.js';
import { connectClient } from '../feedback/support/oauth.js';
import { fillDisk, freeDisk, fullOnWrite } from '../support/full-disk.js';
import { CookieJar, formIn, request } from './support/browserless.js';
import { registerClient, startAuthorization } from './support/client.js';
import { expectUnavailablePage } from './support/refusals.js';

const EMAIL = 'answers@example.com';

/** the OAuth error envelope, as JSON */
async function expectJson(res: Response) {
  const text = await res.text();
  expect(res.status, text).to.equal(503);
  expect(Number(res.headers.get('retry-after'))).to.be.at.least(1);
  expect(res.headers.get('content-type')).to.match(/^application\/json/);
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(body.error).to.equal('temporarily_unavailable');
  expect(body.error_description).to.be.a('string');
}

const form = (params: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(params),
});

describe('When the OAuth endpoints cannot write (disk full)', function () {
  this.timeout(60_000);
  let fb: FeedbackHarness;
  /** prepared while there is room: an app per test that uses one, a sign-in started */
  let app: Awaited<ReturnType<typeof connectClient>>;
  let other: Awaited<ReturnType<typeof connectClient>>;
  let refreshing: Awaited<ReturnType<typeof connectClient>>;
  let authUrl: string;
  let signIn: { jar: CookieJar; html: string };

  before(async () => {
    fb = await startFeedback();
    await fb.createUser(EMAIL);
    app = await connectClient(fb, { email: EMAIL });
    other = await connectClient(fb, { email: EMAIL });
    refreshing = await connectClient(fb, { email: EMAIL });
    const config = await registerClient(fb.url);
    authUrl = (await startAuthorization(config, fb.url, 'openid')).url;
    const jar = new CookieJar();
    const started = await request(jar, authUrl);
    const page = await request(jar, new URL(started.headers.get('location') ?? '', fb.url).href);
    signIn = { jar, html: await page.text() };
    fillDisk(fb.deps().readStore);
  });
  after(async () => {
    freeDisk(fb.deps().readStore);
    await fb.stop();
  });

  it('answers a refresh at the token endpoint 503 temporarily_unavailable as JSON', async () => {
    const res = await fetch(
      `${fb.url}/oauth/token`,
      form({
        grant_type: 'refresh_token',
        refresh_token: refreshing.refreshToken,
        client_id: refreshing.clientId,
      }),
    );
    await expectJson(res);
  });

  it('answers a client registration 503 temporarily_unavailable as JSON', async () => {
    const res = await fetch(`${fb.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Full disk client',
        redirect_uris: ['http://127.0.0.1:9/cb'],
        token_endpoint_auth_method: 'none',
      }),
    });
    await expectJson(res);
  });

  it('answers the revocation of a refresh token 503 temporarily_unavailable as JSON', async () => {
    const res = await fetch(
      `${fb.url}/oauth/revoke`,
      form({ token: app.refreshToken, client_id: app.clientId }),
    );
    await expectJson(res);
  });

  it('answers the revocation of an access token 503 temporarily_unavailable, not a 200 a restart would undo', async () => {
    const res = await fetch(
      `${fb.url}/oauth/revoke`,
      form({ token: other.accessToken, client_id: other.clientId }),
    );
    await expectJson(res);
  });

  it('answers a pushed authorization request 503 temporarily_unavailable as JSON', async () => {
    const params = Object.fromEntries(new URL(authUrl).searchParams);
    await expectJson(await fetch(`${fb.url}/oauth/par`, form(params)));
  });

  it('answers an authorization request with the error page, 503 temporarily_unavailable', async () => {
    await expectUnavailablePage(await fetch(authUrl, { redirect: 'manual' }));
  });

  it('answers the sign-in form with the error page, 503 temporarily_unavailable', async () => {
    const email = formIn(signIn.html, fb.url, '/email');
    await expectUnavailablePage(
      await request(signIn.jar, email.action, { ...email.fields, email: EMAIL }),
    );
  });

  describe('and only the authorization request itself cannot be stored (oidc-provider answers)', () => {
    before(() => {
      freeDisk(fb.deps().readStore);
      fullOnWrite(fb.deps().readStore, `${FEEDBACK_OAUTH_PREFIX}_Interaction`);
    });

    it('answers the authorization request with the error page, 503 temporarily_unavailable', async () => {
      await expectUnavailablePage(await fetch(authUrl, { redirect: 'manual' }));
    });
  });
});
