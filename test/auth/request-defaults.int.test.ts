/**
 * What the authorization endpoint adds to a request (src/auth/request-defaults.ts) and what it
 * must leave alone: offline_access without a prompt is made an explicit consent (OIDC Core §11),
 * but a prompt the client names is the client's; a request for OIDC scopes only gets the
 * service's data scope beside them, but one naming no scope the service knows gets none.
 */
import { expect } from 'chai';
import { feedbackAuthPreset, notesAuthPreset } from '../../src/auth/index.js';
import {
  authorizeOverHttp,
  CookieJar,
  errorSentBack,
  formIn,
  request,
} from './support/browserless.js';
import { registerClient, startAuthorization } from './support/client.js';
import { type Harness, startHarness } from './support/harness.js';

const EMAIL = 'again@example.com';

describe('When a signed-in person’s client asks again with prompt=login', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ ...feedbackAuthPreset, serviceName: 'Feedback' });
  });
  after(async () => h.close());

  /** the page the authorization request leads the browser to */
  async function pageFor(jar: CookieJar, authUrl: string): Promise<string> {
    let res = await request(jar, authUrl);
    for (let hops = 0; hops < 5 && res.status >= 300 && res.status < 400; hops++) {
      res = await request(jar, new URL(res.headers.get('location') ?? '', h.base).href);
    }
    expect(res.status).to.equal(200);
    return res.text();
  }

  /** signs in once, then asks again with `scope` and prompt=login; the page that leads to */
  async function signInAgain(scope: string) {
    const config = await registerClient(h.base);
    const jar = new CookieJar();
    const first = await startAuthorization(config, h.base, 'openid');
    await authorizeOverHttp({
      authUrl: first.url,
      base: h.base,
      email: EMAIL,
      mailboxPath: h.mailboxPath,
      jar,
    });
    const again = new URL((await startAuthorization(config, h.base, scope)).url);
    again.searchParams.set('prompt', 'login');
    return { jar, page: await pageFor(jar, again.href) };
  }

  it('asks the person to sign in again instead of reusing the session', async () => {
    // OIDC Core §3.1.2.1, prompt: "login — The Authorization Server SHOULD prompt the End-User
    // for reauthentication"; the offline_access default adds a prompt only "without a prompt"
    const { page } = await signInAgain('openid offline_access');
    expect(page, 'the e-mail sign-in form').to.include('/email"');
    expect(page).not.to.include('/confirm"');
  });

  it('takes no approval while the sign-in is still asked for', async () => {
    // the consent form approves a consent prompt only: posted to the sign-in step (its own CSRF
    // token, a session at hand) it approves nothing and saves no grant
    const { jar, page } = await signInAgain('openid');
    const form = formIn(page, h.base, '/email');
    const confirm = form.action.replace(/\/email$/, '/confirm');
    const res = await request(jar, confirm, form.fields);
    expect(res.status, res.headers.get('location') ?? '').to.equal(400);
    expect(await res.text()).to.include('Nothing to approve');
  });
});

describe('When a notes client asks only for scopes the service does not know', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ ...notesAuthPreset });
  });
  after(async () => h.close());

  it('is sent back with invalid_scope before anyone signs in, not given the notes scope', async () => {
    // RFC 6749 §4.1.2.1: invalid_scope, "the requested scope is invalid, unknown, or malformed";
    // request-defaults.ts: "a request naming only unknown ones is left to be refused"
    const config = await registerClient(h.base, { algorithm: 'oauth2' });
    const { url } = await startAuthorization(config, h.base, 'bogus');
    const jar = new CookieJar();
    let res = await request(jar, url);
    let location = '';
    for (let hops = 0; hops < 5 && res.status >= 300 && res.status < 400; hops++) {
      location = new URL(res.headers.get('location') ?? '', h.base).href;
      if (new URL(location).pathname === '/cb') break;
      res = await request(jar, location);
    }
    // a client nobody approved: the error page, whose link back carries it (error-redirects.ts)
    const back =
      new URL(location).pathname === '/cb' ? new URL(location) : await errorSentBack(res, h.base);
    expect(back.pathname, `answered ${res.status}`).to.equal('/cb');
    expect(back.searchParams.get('error')).to.equal('invalid_scope');
  });
});
