/**
 * The authorization endpoint is no open redirector (RFC 9700 §4.11.2: an authorization server
 * "should only automatically redirect the user agent if it trusts the redirection URI").
 * Registration is open, so a stranger's client names any https address; its error answers are
 * shown on the error page, with a link back the person may follow, until a person approves the
 * client. A client someone approved gets its errors as RFC 6749 §4.1.2.1 says, at its redirect URI.
 */
import { expect } from 'chai';
import { feedbackAuthPreset } from '../../src/auth/index.js';
import { authorizeOverHttp, CookieJar, request } from './support/browserless.js';
import { registerClient, startAuthorization } from './support/client.js';
import { type Harness, startHarness } from './support/harness.js';

/** an authorization request of `clientId` that fails at once: nobody signed in, prompt=none */
const silent = (h: Harness, clientId: string, redirectUri: string, extra = {}) =>
  `${h.base}/oauth/authorize?${new URLSearchParams({
    ...extra,
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid',
    prompt: 'none',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  })}`;

describe('When an authorization request fails before anyone signs in', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ ...feedbackAuthPreset });
  });
  after(() => h.close());

  it('shows the error instead of sending the browser to a client nobody approved', async () => {
    const elsewhere = 'https://elsewhere.example/landing';
    const config = await registerClient(h.base, { redirectUri: elsewhere });
    const res = await request(
      new CookieJar(),
      silent(h, config.clientMetadata().client_id, elsewhere),
    );
    expect(res.status).to.equal(400);
    expect(res.headers.get('location')).to.equal(null);
    const html = await res.text();
    expect(html).to.include('login_required').and.include('elsewhere.example');
    // the way back is a link the person may choose to follow
    const back = /id="back" href="([^"]+)"/.exec(html)?.[1]?.replaceAll('&amp;', '&') ?? '';
    expect(new URL(back).origin).to.equal('https://elsewhere.example');
    expect(new URL(back).searchParams.get('error')).to.equal('login_required');
  });

  it('shows it too when asked to post it to the client (response_mode=form_post)', async () => {
    // oidc-provider answers a page whose script posts the error to the client by itself
    const elsewhere = 'https://elsewhere.example/landing';
    const config = await registerClient(h.base, { redirectUri: elsewhere });
    const res = await request(
      new CookieJar(),
      silent(h, config.clientMetadata().client_id, elsewhere, { response_mode: 'form_post' }),
    );
    expect(res.status).to.equal(400);
    const html = await res.text();
    expect(html).not.to.include('<form method="post" action="https://elsewhere.example');
    const back = /id="back" href="([^"]+)"/.exec(html)?.[1]?.replaceAll('&amp;', '&') ?? '';
    expect(new URL(back).searchParams.get('error')).to.equal('login_required');
  });

  it('shows it too when asked to put it in the fragment (response_mode=fragment)', async () => {
    const elsewhere = 'https://elsewhere.example/landing';
    const config = await registerClient(h.base, { redirectUri: elsewhere });
    const res = await request(
      new CookieJar(),
      silent(h, config.clientMetadata().client_id, elsewhere, { response_mode: 'fragment' }),
    );
    expect(res.status).to.equal(400);
    expect(res.headers.get('location')).to.equal(null);
    const back = /id="back" href="([^"]+)"/.exec(await res.text())?.[1]?.replaceAll('&amp;', '&');
    const fragment = new URLSearchParams(new URL(back ?? '').hash.slice(1));
    expect(fragment.get('error')).to.equal('login_required');
  });

  it('sends the error to the redirect URI of a client a person approved', async () => {
    const config = await registerClient(h.base);
    const { url } = await startAuthorization(config, h.base, 'openid');
    await authorizeOverHttp({
      authUrl: url,
      base: h.base,
      email: 'approver@example.com',
      mailboxPath: h.mailboxPath,
    });
    const res = await request(
      new CookieJar(),
      silent(h, config.clientMetadata().client_id, `${h.base}/cb`),
    );
    expect(res.status).to.be.oneOf([302, 303]);
    const location = new URL(res.headers.get('location') ?? '', h.base);
    expect(location.pathname).to.equal('/cb');
    expect(location.searchParams.get('error')).to.equal('login_required');
  });
});
