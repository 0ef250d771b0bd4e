/**
 * Resource-growth audit: "dynamically registered OAuth clients never expire": every open
 * registration stayed in the store (in memory, on the embedded one) for good. A client nobody
 * approves is gone after its lifetime (24 h by default, OAUTH_UNUSED_CLIENT_HOURS); one a person
 * approved outlives its last grant by 30 days (src/auth/storage/client-lifetime.ts).
 */
import { expect } from 'chai';
import { feedbackAuthPreset } from '../../src/auth/index.js';
import { steppableWallClock } from '../support/wall-clock.js';
import { sweepExpiredClients } from '../../src/auth/storage/client-sweep.js';
import { authorizeOverHttp } from './support/browserless.js';
import { exchange, oidc, registerClient, startAuthorization } from './support/client.js';
import { signInAndExchange } from './support/flow.js';
import { authorizeAnswer as baseAuthorizeAnswer } from './support/refusals.js';
import { type Harness, startHarness } from './support/harness.js';

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
const EMAIL = 'maker@example.com';

describe('When dynamically registered clients age', () => {
  let h: Harness;
  let clock: ReturnType<typeof steppableWallClock>;
  beforeEach(async () => {
    // oidc-provider, jose and openid-client all read Date.now: stepping it moves every clock
    clock = steppableWallClock();
    h = await startHarness({ ...feedbackAuthPreset });
  });
  afterEach(async () => {
    clock.restore();
    await h.close();
  });

  const idOf = (config: oidc.Configuration) => config.clientMetadata().client_id;
  const stored = (clientId: string) =>
    h.readStore().collection('oauth_Client').findOne({ _id: clientId });
  const authorizeAnswer = (clientId: string) => baseAuthorizeAnswer(h.base, clientId);
  /** what the services' workers do every minute (client-sweep.ts) */
  const sweep = () => sweepExpiredClients(h.readStore().collection('oauth_Client'), Date.now());

  it('forgets a client nobody approved 24 hours after its registration', async () => {
    const quiet = idOf(await registerClient(h.base, { name: 'Abandoned' }));
    const started = idOf(await registerClient(h.base, { name: 'Half-used' }));
    clock.step(DAY_MS - MINUTE_MS);
    expect(await stored(quiet)).to.not.equal(null);
    // a sign-in started for a client keeps it for that sign-in's hour
    expect(await authorizeAnswer(started)).to.equal('sign-in');
    clock.step(2 * MINUTE_MS);
    expect(await authorizeAnswer(quiet)).to.equal('invalid_client');
    expect(await authorizeAnswer(started)).to.equal('sign-in');
    clock.step(HOUR_MS + MINUTE_MS);
    expect(await authorizeAnswer(started)).to.equal('invalid_client');
    // expired clients are refused at once, and gone from the store with the next sweep
    await sweep();
    expect(await stored(quiet)).to.equal(null);
    expect(await stored(started)).to.equal(null);
  });

  it('keeps a client someone approved, working, as long as its grant slides along', async () => {
    const config = await registerClient(h.base, { name: 'Daily helper' });
    const { tokens } = await signInAndExchange(h, config, { scope: 'openid', email: EMAIL });
    let refreshToken = tokens.refresh_token as string;
    clock.step(DAY_MS + HOUR_MS);
    await sweep();
    expect(await stored(idOf(config))).to.not.equal(null);
    // each refresh slides the grant 90 days (feedback spec: "a client that connects at least
    // monthly never sees the login page again"), and its client with it
    for (let month = 0; month < 4; month++) {
      clock.step(31 * DAY_MS);
      const next = await oidc.refreshTokenGrant(config, refreshToken);
      await h.auth.verifyAccessToken(next.access_token);
      refreshToken = next.refresh_token as string;
    }
    await sweep();
    expect(await authorizeAnswer(idOf(config))).to.equal('sign-in');
    const userId = h.accounts.byEmail.get(EMAIL) as string;
    const apps = await h.auth.listConnectedApps(userId);
    expect(apps.map((app) => app.clientName)).to.deep.equal(['Daily helper']);
    // silent for longer than its grant (90 days): the refresh token is dead, as before, and the
    // app may sign the person in again under the same registration for 30 days more
    clock.step(91 * DAY_MS);
    const dead = await oidc.refreshTokenGrant(config, refreshToken).catch((e: unknown) => e);
    expect((dead as oidc.ResponseBodyError).error).to.equal('invalid_grant');
    expect(await authorizeAnswer(idOf(config))).to.equal('sign-in');
    // README: "A client someone approved outlives its grants by 30 days": there on day 29½...
    clock.step(28.5 * DAY_MS);
    await sweep();
    expect(await authorizeAnswer(idOf(config))).to.equal('sign-in');
    // ... then it goes
    clock.step(DAY_MS);
    await sweep();
    expect(await stored(idOf(config))).to.equal(null);
  });

  it('lets a client finish the sign-in it started just before its lifetime ended', async () => {
    const config = await registerClient(h.base, { name: 'Last minute' });
    const idle = idOf(await registerClient(h.base, { name: 'Idle twin' }));
    clock.step(DAY_MS - 5 * MINUTE_MS);
    const pending = await startAuthorization(config, h.base, 'openid');
    let stepped = false;
    const callback = await authorizeOverHttp({
      authUrl: pending.url,
      base: h.base,
      email: EMAIL,
      mailboxPath: h.mailboxPath,
      // the sign-in page is up: the person takes ten minutes, past the client's 24 hours
      onPage: () => {
        if (!stepped) clock.step(10 * MINUTE_MS);
        stepped = true;
      },
    });
    const tokens = await exchange(config, callback, pending);
    await h.auth.verifyAccessToken(tokens.access_token);
    // its twin, registered with it and never asked for, is gone by now
    expect(await authorizeAnswer(idle)).to.equal('invalid_client');
    // approved now: it stays
    clock.step(DAY_MS);
    await sweep();
    expect(await stored(idOf(config))).to.not.equal(null);
  });

  it('dates clients stored before they expired: unused ones go, approved ones stay', async () => {
    const unused = idOf(await registerClient(h.base, { name: 'Old unused' }));
    const approved = await registerClient(h.base, { name: 'Old approved' });
    await signInAndExchange(h, approved, { scope: 'openid', email: EMAIL });
    // as an earlier version stored them: no expiry
    const clients = h.readStore().collection('oauth_Client');
    await clients.updateMany({}, { $set: { expiresAt: null } });
    await h.readStore().flush();
    await h.restart();
    clock.step(DAY_MS + HOUR_MS);
    await sweep();
    expect(await stored(unused)).to.equal(null);
    expect(await authorizeAnswer(idOf(approved))).to.equal('sign-in');
    // "given such an expiry": 30 days past its grant's end (day 90), so still there on day 100
    clock.step(99 * DAY_MS);
    await sweep();
    expect(await authorizeAnswer(idOf(approved))).to.equal('sign-in');
  });

  it('lets a client finish a sign-in it pushed (PAR) just before its lifetime ended', async () => {
    // README: "A sign-in started for it keeps it until that sign-in ends"; a pushed request is
    // that sign-in's first step (RFC 9126), used by the authorization request moments later
    const clientId = idOf(await registerClient(h.base, { name: 'Pusher' }));
    clock.step(DAY_MS - 10_000);
    const pushed = await fetch(`${h.base}/oauth/par`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: clientId,
        response_type: 'code',
        redirect_uri: `${h.base}/cb`,
        scope: 'openid',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      }),
    });
    expect(pushed.status).to.equal(201);
    const { request_uri } = (await pushed.json()) as { request_uri: string };
    clock.step(20_000);
    const url = new URL(`${h.base}/oauth/authorize`);
    url.search = new URLSearchParams({ client_id: clientId, request_uri }).toString();
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status, await res.text()).to.equal(303);
  });
});
