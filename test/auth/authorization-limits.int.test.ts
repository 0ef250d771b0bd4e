/**
 * What one client IP may make the authorization endpoint keep (src/auth/authorization-limit.ts).
 * MCP audit F6: unauthenticated `GET /oauth/authorize` with a registered client and a
 * 12,000-character `state` answered 303 and stored a ~13 KB interaction record for an hour, at
 * ~390 requests/s from one client, without limit.
 *
 * README (Security, Redirect URIs and requests): "Authorization requests (`/oauth/authorize` and
 * `/oauth/par` together) are limited per client IP, 60 per 10 minutes, then 429 with `Retry-After`
 * and `temporarily_unavailable`; a parameter longer than 2,048 characters, or a request longer
 * than 8,192 in all, is refused with `invalid_request` (the error page; 413 at `/oauth/par`)."
 * RFC 6749 §4.1.2.1 (temporarily_unavailable); RFC 9126 §2.3 ("413 Payload Too Large",
 * "429 Too Many Requests").
 */
import { expect } from 'chai';
import { feedbackAuthPreset, notesAuthPreset } from '../../src/auth/index.js';
import { registerClient } from './support/client.js';
import { signInAndExchange } from './support/flow.js';
import { type Harness, startHarness } from './support/harness.js';

const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

/** A PKCE authorization request's parameters, with `params` over them. */
function requestOf(h: Harness, clientId: string, params: Record<string, string>) {
  return new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: `${h.base}/cb`,
    scope: 'openid',
    state: 'xyz',
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
    ...params,
  });
}

function authorize(h: Harness, clientId: string, params: Record<string, string> = {}, ip?: string) {
  const url = new URL(`${h.base}/oauth/authorize`);
  url.search = requestOf(h, clientId, params).toString();
  return fetch(url, { redirect: 'manual', headers: ip ? { 'x-forwarded-for': ip } : {} });
}

function push(h: Harness, clientId: string, params: Record<string, string> = {}, ip?: string) {
  return fetch(`${h.base}/oauth/par`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(ip ? { 'x-forwarded-for': ip } : {}),
    },
    body: requestOf(h, clientId, params),
  });
}

const interactions = (h: Harness) => h.readStore().collection('oauth_Interaction').countDocuments();

describe('When one address sends more authorization requests than its limit', () => {
  let h: Harness;
  let clientId: string;
  before(async () => {
    h = await startHarness({
      ...feedbackAuthPreset,
      authorizationLimit: { max: 3, windowSeconds: 600 },
      trustProxy: true,
    });
    clientId = (await registerClient(h.base)).clientMetadata().client_id;
  });
  after(() => h.close());

  it('answers 429 with Retry-After and temporarily_unavailable on the error page, while another address goes on', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await authorize(h, clientId, {}, '203.0.113.7')).status);
    expect(statuses).to.deep.equal([303, 303, 303]);
    const stored = await interactions(h);
    const limited = await authorize(h, clientId, {}, '203.0.113.7');
    expect(limited.status).to.equal(429);
    expect(Number(limited.headers.get('retry-after'))).to.be.within(1, 600);
    expect(limited.headers.get('cache-control')).to.equal('no-store');
    expect(limited.headers.get('content-type')).to.match(/^text\/html/);
    const page = await limited.text();
    expect(page).to.include('temporarily_unavailable');
    expect(page).to.include('too many authorization requests from this address');
    expect(await interactions(h)).to.equal(stored);
    expect((await authorize(h, clientId, {}, '198.51.100.9')).status).to.equal(303);
  });

  it('counts pushed requests (PAR) with them, and refuses one past the limit as JSON', async () => {
    const ip = '192.0.2.44';
    expect((await push(h, clientId, {}, ip)).status).to.equal(201);
    expect((await authorize(h, clientId, {}, ip)).status).to.equal(303);
    expect((await push(h, clientId, {}, ip)).status).to.equal(201);
    const limited = await push(h, clientId, {}, ip);
    expect(limited.status).to.equal(429);
    expect(Number(limited.headers.get('retry-after'))).to.be.within(1, 600);
    const body = (await limited.json()) as Record<string, string>;
    expect(body.error).to.equal('temporarily_unavailable');
  });

  // README (Security): "per client IP" means an IPv4 address or an IPv6 /64 — a host is routinely
  // handed a whole /64, so counting single IPv6 addresses would let it rotate past the limit.
  it('counts every address of one IPv6 /64 as one client, and an IPv4 address in IPv6 form as itself', async () => {
    const rotating = ['2001:db8:7:1::1', '2001:db8:7:1::2', '2001:db8:7:1:ffff:ffff:ffff:fffe'];
    const statuses: number[] = [];
    for (const ip of rotating) statuses.push((await authorize(h, clientId, {}, ip)).status);
    expect(statuses).to.deep.equal([303, 303, 303]);
    expect((await authorize(h, clientId, {}, '2001:db8:7:1:abcd::9')).status).to.equal(429);
    expect((await authorize(h, clientId, {}, '2001:db8:7:2::1')).status).to.equal(303);

    for (let i = 0; i < 3; i++) await authorize(h, clientId, {}, '203.0.113.80');
    expect((await authorize(h, clientId, {}, '::ffff:203.0.113.80')).status).to.equal(429);
  });

  // some proxies write their X-Forwarded-For entry with the client's source port (RFC 7239 §6
  // allows one): a client is its address, whatever port it sent from
  it('counts an address forwarded with a port as the address, IPv4 and IPv6 alike', async () => {
    const statuses: number[] = [];
    for (const port of [40001, 40002, 40003, 40004]) {
      statuses.push((await authorize(h, clientId, {}, `203.0.113.81:${port}`)).status);
    }
    expect(statuses).to.deep.equal([303, 303, 303, 429]);
    expect((await authorize(h, clientId, {}, '203.0.113.81')).status).to.equal(429);
    for (let i = 0; i < 3; i++) await authorize(h, clientId, {}, `[2001:db8:9::1]:${50000 + i}`);
    expect((await authorize(h, clientId, {}, '2001:db8:9::2')).status).to.equal(429);
  });

  // oidc-provider serves the authorization endpoint by GET only (its `enableHttpPostMethods` is
  // off): a POST there is no authorization request, stores nothing, and is not counted
  it('answers a POST to /oauth/authorize as no endpoint, without counting it against the address', async () => {
    const ip = '203.0.113.90';
    const stored = await interactions(h);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const posted = await fetch(`${h.base}/oauth/authorize`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip },
        body: requestOf(h, clientId, {}),
      });
      statuses.push(posted.status);
    }
    expect(statuses).to.deep.equal([404, 404, 404, 404]);
    expect(await interactions(h)).to.equal(stored);
    expect((await authorize(h, clientId, {}, ip)).status).to.equal(303);
  });
});

describe('When a client signs people in at the default authorization limit', () => {
  let h: Harness;
  let offset = 0;
  before(async () => {
    h = await startHarness({ ...notesAuthPreset, now: () => Date.now() + offset });
  });
  after(() => h.close());

  it('serves 60 requests from one address in 10 minutes, refuses the 61st, and a sign-in still completes first', async () => {
    const config = await registerClient(h.base, { name: 'Reloader', algorithm: 'oauth2' });
    const { tokens } = await signInAndExchange(h, config, {
      scope: 'notes',
      email: 'reload@example.com',
    });
    expect(tokens.access_token).to.be.a('string');
    const clientId = config.clientMetadata().client_id;
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) statuses.push((await authorize(h, clientId)).status);
    // one request of the 60 was the sign-in's
    expect(statuses.filter((s) => s === 303)).to.have.length(59);
    expect(statuses.slice(-1)).to.deep.equal([429]);
    // "60 per 10 minutes", sliding: still refused 9½ minutes on, served once 10 have passed
    offset = 9.5 * 60_000;
    expect((await authorize(h, clientId)).status).to.equal(429);
    offset = 10.5 * 60_000;
    expect((await authorize(h, clientId)).status).to.equal(303);
  });
});

for (const [service, preset, algorithm] of [
  ['feedback', feedbackAuthPreset, 'oidc'],
  ['notes', notesAuthPreset, 'oauth2'],
] as const) {
  describe(`When an authorization request to ${service} carries an oversized parameter`, () => {
    let h: Harness;
    let clientId: string;
    before(async () => {
      h = await startHarness({ ...preset });
      clientId = (await registerClient(h.base, { algorithm })).clientMetadata().client_id;
    });
    after(() => h.close());

    it('refuses a 12,000-character state with invalid_request on the error page and stores nothing', async () => {
      const before = await interactions(h);
      const res = await authorize(h, clientId, { state: 's'.repeat(12_000) });
      expect(res.status).to.equal(400);
      expect(res.headers.get('location')).to.equal(null);
      const page = await res.text();
      expect(page).to.include('invalid_request');
      expect(page).to.include('state is longer than 2048 characters');
      expect(await interactions(h)).to.equal(before);
    });

    it('takes a sign-in with PKCE and a 2,048-character state, refuses 2,049, and more than 8,192 in all', async () => {
      const config = await registerClient(h.base, { name: 'Ordinary', algorithm });
      const { tokens } = await signInAndExchange(h, config, {
        scope: service === 'notes' ? 'notes' : 'openid',
        email: 'ordinary@example.com',
      });
      expect(tokens.access_token).to.be.a('string');
      expect((await authorize(h, clientId, { state: 's'.repeat(2048) })).status).to.equal(303);
      const nonce = await authorize(h, clientId, { nonce: 'n'.repeat(2049) });
      expect(nonce.status).to.equal(400);
      expect(await nonce.text()).to.include('nonce is longer than 2048 characters');
      const many = await authorize(h, clientId, {
        state: 's'.repeat(2000),
        nonce: 'n'.repeat(2000),
        login_hint: 'l'.repeat(2000),
        ui_locales: 'u'.repeat(2000),
        acr_values: 'a'.repeat(2000),
      });
      expect(many.status).to.equal(400);
      expect(await many.text()).to.include('longer than 8192 characters in all');
    });

    it('takes a request of 8,192 characters in all, names and values, and refuses 8,193', async () => {
      /** pads the request with parameters of at most 2,048 characters to `total` characters */
      const padded = (total: number) => {
        const base = [...requestOf(h, clientId, {})].reduce(
          (n, [k, v]) => n + k.length + v.length,
          0,
        );
        const pads: Record<string, string> = {};
        for (let i = 0, left = total - base; left > 0; i++) {
          const name = `x_pad${i}`;
          const value = 'p'.repeat(Math.min(2048, left - name.length));
          pads[name] = value;
          left -= name.length + value.length;
        }
        return pads;
      };
      expect((await authorize(h, clientId, padded(8192))).status).to.equal(303);
      const over = await authorize(h, clientId, padded(8193));
      expect(over.status).to.equal(400);
      expect(await over.text()).to.include('longer than 8192 characters in all');
    });

    it('refuses an oversized pushed request (PAR) with 413 and invalid_request as JSON', async () => {
      const res = await push(h, clientId, { state: 's'.repeat(12_000) });
      expect(res.status).to.equal(413);
      const body = (await res.json()) as Record<string, string>;
      expect(body).to.deep.equal({
        error: 'invalid_request',
        error_description: 'state is longer than 2048 characters',
      });
    });

    it('counts characters, not UTF-16 units: a pushed state of 2,048 emoji is taken', async () => {
      // README: "a parameter longer than 2,048 characters" — an emoji is one character, as the
      // registration bounds count it, though two UTF-16 units (too long for a URL: pushed here)
      const res = await push(h, clientId, { state: '\u{1F600}'.repeat(2048) });
      expect(res.status, await res.clone().text()).to.equal(201);
      expect(((await res.json()) as { request_uri?: string }).request_uri).to.be.a('string');
    });
  });
}
