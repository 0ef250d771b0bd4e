/**
 * A dynamically registered client names itself, so the sign-in and consent pages must not let
 * that name pass for the service: "Allow Feedback board to access Feedback board?" is refused at
 * registration, and both pages say where the authorization code will be sent (the redirect URI's
 * host), which is the one thing about the client the person can check.
 */
import { expect } from 'chai';
import { feedbackAuthPreset } from '../../src/auth/index.js';
import { authorizeOverHttp } from './support/browserless.js';
import { registerClient, startAuthorization } from './support/client.js';
import { type Harness, startHarness } from './support/harness.js';

const register = (h: Harness, metadata: Record<string, unknown>) =>
  fetch(`${h.base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      token_endpoint_auth_method: 'none',
      redirect_uris: ['https://assistant.example.com/cb'],
      ...metadata,
    }),
  });

/** the text of the element with this id, tags stripped */
const textOf = (html: string, id: string) =>
  new RegExp(`id="${id}"[^>]*>([\\s\\S]*?)</p>`).exec(html)?.[1]?.replace(/<[^>]+>/g, '') ?? null;

describe('When a client names itself and asks a person for access', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ ...feedbackAuthPreset, serviceName: 'Feedback board' });
  });
  after(() => h.close());

  it("refuses a client_name that is the service's own name, however it is spelled", async () => {
    for (const metadata of [
      { client_name: 'Feedback board' },
      { client_name: 'feedback-BOARD' },
      { client_name: 'ＦＥＥＤＢＡＣＫ ＢＯＡＲＤ' },
      // a look-alike letter: the Cyrillic е (U+0435)
      { client_name: 'F\u0435edback board' },
      // mathematical letters, which only compatibility folding (NFKC) reads as Latin ones
      {
        client_name:
          '\u{1D509}\u{1D522}\u{1D522}\u{1D521}\u{1D51F}\u{1D51E}\u{1D520}\u{1D528} board',
      },
      { client_name: 'Helper', 'client_name#fr': 'Feedback Board' },
    ]) {
      const res = await register(h, metadata);
      expect(res.status, JSON.stringify(metadata)).to.equal(400);
      const body = (await res.json()) as Record<string, string>;
      expect(body.error).to.equal('invalid_client_metadata');
      expect(body.error_description).to.include("service's own name");
    }
  });

  it('accepts a name that only mentions the service', async () => {
    const res = await register(h, { client_name: 'Assistant for Feedback board' });
    expect(res.status).to.equal(201);
  });

  it('shows the host the code goes to on the sign-in and the consent page', async () => {
    const redirect = 'https://assistant.example.com/cb';
    const config = await registerClient(h.base, { name: 'Helpful app', redirectUri: redirect });
    const { url } = await startAuthorization(config, h.base, 'openid service.public', redirect);
    const pages: string[] = [];
    const callback = await authorizeOverHttp({
      authUrl: url,
      base: h.base,
      email: 'reader@example.com',
      mailboxPath: h.mailboxPath,
      onPage: (html) => pages.push(html),
    });
    expect(callback.host).to.equal('assistant.example.com');
    const signIn = pages.find((html) => html.includes('/email"'));
    const consent = pages.find((html) => html.includes('/confirm"'));
    for (const html of [signIn, consent]) {
      expect(textOf(html ?? '', 'destination')).to.equal(
        'It will send you back to assistant.example.com. Continue only if you trust that address.',
      );
    }
  });

  it('shows a client_name without the bidirectional controls that would make it read as another', async () => {
    // README: "A client's name is its own claim: registration refuses the service's own name".
    // U+202E (right-to-left override) before "draob kcabdeeF" displays "Feedback board": the
    // registration's check reads the letters as typed, so only the page can stop the disguise
    const redirect = 'https://assistant.example.com/cb';
    const config = await registerClient(h.base, {
      name: '\u202Edraob kcabdeeF',
      redirectUri: redirect,
    });
    const { url } = await startAuthorization(config, h.base, 'openid service.public', redirect);
    const pages: string[] = [];
    await authorizeOverHttp({
      authUrl: url,
      base: h.base,
      email: 'bidi@example.com',
      mailboxPath: h.mailboxPath,
      onPage: (html) => pages.push(html),
    });
    const consent = pages.find((html) => html.includes('/confirm"')) ?? '';
    expect(/id="client-name">([^<]*)</.exec(consent)?.[1]).to.equal('draob kcabdeeF');
    for (const html of pages) expect(html).not.to.match(/[\u202A-\u202E\u2066-\u2069]/);
  });

  /** Every page a sign-in through a client with this redirect URI shows, in order. */
  async function pagesSeen(redirectUri: string, email: string): Promise<string[]> {
    const config = await registerClient(h.base, { redirectUri });
    const { url } = await startAuthorization(config, h.base, 'openid', redirectUri);
    const pages: string[] = [];
    await authorizeOverHttp({
      authUrl: url,
      base: h.base,
      email,
      mailboxPath: h.mailboxPath,
      onPage: (html) => pages.push(html),
    });
    return pages;
  }

  it('names the port too when the redirect URI has one', async () => {
    // README: the pages "show where the code will be sent (the redirect URI's host ...)": on
    // another port of that host another server may be listening
    const redirect = 'https://assistant.example.com:8443/cb';
    const pages = await pagesSeen(redirect, 'port@example.com');
    const signIn = pages.find((html) => html.includes('/email"')) ?? '';
    expect(textOf(signIn, 'destination')).to.include('assistant.example.com:8443.');
  });

  it('names a loopback redirect as an app on this device', async () => {
    const pages = await pagesSeen('http://127.0.0.1:9/cb', 'native@example.com');
    const decisive = pages.filter((html) => html.includes('/email"') || html.includes('/confirm"'));
    expect(decisive).to.have.length(2);
    for (const html of decisive) {
      expect(textOf(html, 'destination')).to.include('an app on this device (127.0.0.1:9)');
    }
  });

  it('names a private-use scheme as the app that opens its links', async () => {
    // README: the pages show "the claimed scheme for private-use URIs"
    const redirect = 'com.example.app:/cb';
    const pages = await pagesSeen(redirect, 'scheme@example.com');
    const signIn = pages.find((html) => html.includes('/email"')) ?? '';
    expect(textOf(signIn, 'destination')).to.include('the app that opens com.example.app: links');
  });
});
