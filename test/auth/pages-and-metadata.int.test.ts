/**
 * Protected-resource metadata (RFC 9728), the WWW-Authenticate helper, the dev mailbox page,
 * and the guards on the sign-in forms (CSRF token, limited code attempts).
 */
import { expect } from 'chai';
import { feedbackAuthPreset, notesAuthPreset } from '../../src/auth/index.js';
import { CookieJar, formIn, request } from './support/browserless.js';
import { registerClient, startAuthorization } from './support/client.js';
import { type Harness, startHarness } from './support/harness.js';
import { mailedCodes } from './support/sign-in.js';

describe('When a client discovers the protected resource', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ ...feedbackAuthPreset, serviceName: 'Feedback' });
  });
  after(async () => h.close());

  it('serves RFC 9728 metadata naming the authorization server and scopes', async () => {
    const res = await fetch(`${h.base}/.well-known/oauth-protected-resource`);
    expect(res.status).to.equal(200);
    const doc = (await res.json()) as Record<string, unknown>;
    expect(doc).to.deep.include({ resource: h.base, authorization_servers: [h.base] });
    expect(doc.scopes_supported).to.include('service.public');
    expect(h.auth.protectedResourceMetadata.resource).to.equal(h.base);
  });

  it('builds WWW-Authenticate values pointing at the metadata', () => {
    const meta = `resource_metadata="${h.base}/.well-known/oauth-protected-resource"`;
    expect(h.auth.wwwAuthenticate()).to.equal(`Bearer ${meta}`);
    expect(h.auth.wwwAuthenticate('invalid_token')).to.equal(
      `Bearer ${meta}, error="invalid_token"`,
    );
    // spec: "header WWW-Authenticate: Bearer error=insufficient_scope"
    expect(h.auth.wwwAuthenticate('insufficient_scope')).to.include('error="insufficient_scope"');
  });

  it('shows sent sign-in codes on the dev mailbox page, escaped', async () => {
    const config = await registerClient(h.base);
    const pending = await startAuthorization(config, h.base, 'openid');
    const jar = new CookieJar();
    const login = await request(
      jar,
      new URL((await request(jar, pending.url)).headers.get('location') ?? '', h.base).href,
    );
    const form = formIn(await login.text(), h.base, '/email');
    const email = 'x<b>@example.com';
    const sent = await request(jar, form.action, { ...form.fields, email });
    expect(sent.status).to.equal(400); // not a valid address: refused before anything is sent
    // nor is one with a control or bidirectional character: it would be mailed and shown as typed
    for (const hidden of ['bel\u0007x@example.com', 'eve\u202e@example.com']) {
      const refused = await request(jar, form.action, { ...form.fields, email: hidden });
      expect(refused.status, JSON.stringify(hidden)).to.equal(400);
    }
    // nor one that mail reads as a comment, a list or a group: the code went to owner@evil.com
    // alone, while the account and its ID token (email_verified: true) named the whole string
    for (const structured of [
      'owner@evil.com(victim.com)',
      'owner@evil.com,victim.com',
      'team:owner@evil.com;',
    ]) {
      const refused = await request(jar, form.action, { ...form.fields, email: structured });
      expect(refused.status, structured).to.equal(400);
      expect(await refused.text()).to.include('Enter a valid e-mail address.');
    }
    await request(jar, form.action, { ...form.fields, email: 'mailbox@example.com' });
    const page = await (await fetch(`${h.base}/dev/mailbox`)).text();
    expect(page).to.include('mailbox@example.com');
    expect(page).to.match(/sign-in code: \d{6}/);
    expect(page).not.to.include('<b>');
  });
});

describe('When a client asks the authorization server for a route it does not have', () => {
  // feedback spec: "Every 4xx and 5xx answer has one envelope: {error, code}"; notes spec:
  // "Errors are JSON {error: string}". oidc-provider answered Koa's text "Not Found".
  for (const [service, preset, body] of [
    ['feedback', feedbackAuthPreset, { error: 'not found', code: 'not-found' }],
    ['notes', notesAuthPreset, { error: 'not found' }],
  ] as const) {
    it(`answers 404 in the ${service} envelope (GET /oauth/token, PUT /oauth/register, /oauth/nope)`, async () => {
      const h = await startHarness({ ...preset });
      try {
        for (const [method, path] of [
          ['GET', '/oauth/token'],
          ['PUT', '/oauth/register'],
          ['GET', '/oauth/nope'],
        ]) {
          const res = await fetch(`${h.base}${path}`, { method });
          expect(res.status, `${method} ${path}`).to.equal(404);
          expect(res.headers.get('content-type')).to.match(/^application\/json/);
          expect(await res.json()).to.deep.equal(body);
        }
        // the provider's own answers are untouched
        const token = await fetch(`${h.base}/oauth/token`, { method: 'POST' });
        expect(((await token.json()) as { error: string }).error).to.equal('invalid_request');
      } finally {
        await h.close();
      }
    });
  }
});

describe('When the sign-in forms are misused', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ ...feedbackAuthPreset });
  });
  after(async () => h.close());

  async function atCodeForm() {
    const config = await registerClient(h.base);
    const pending = await startAuthorization(config, h.base, 'openid');
    const jar = new CookieJar();
    const interaction = new URL(
      (await request(jar, pending.url)).headers.get('location') ?? '',
      h.base,
    ).href;
    const form = formIn(await (await request(jar, interaction)).text(), h.base, '/email');
    await request(jar, form.action, { ...form.fields, email: 'guess@example.com' });
    const codeForm = formIn(await (await request(jar, interaction)).text(), h.base, '/code');
    return { jar, codeForm };
  }

  it('refuses a form post without the CSRF token', async () => {
    const { jar, codeForm } = await atCodeForm();
    const res = await request(jar, codeForm.action, { code: '000000', csrf: 'forged' });
    expect(res.status).to.equal(403);
  });

  it('allows five wrong codes, then makes the code unusable', async () => {
    const { jar, codeForm } = await atCodeForm();
    const wrong = mailedCodes(h.mailboxPath).at(-1) === '000000' ? '000001' : '000000';
    const bodies: string[] = [];
    for (let i = 0; i < 5; i++) {
      // six digits: an entry that is no code is told so and costs no try (codeDigits)
      const res = await request(jar, codeForm.action, { ...codeForm.fields, code: wrong });
      expect(res.status).to.equal(400);
      bodies.push(await res.text());
    }
    expect(bodies[0]).to.include('4 attempt(s) left');
    // after the fifth miss the code is gone: the page asks for the e-mail address again
    expect(bodies[4]).to.include('expired or was tried too often');
    expect(bodies[4]).to.include('/email"');
  });
});
