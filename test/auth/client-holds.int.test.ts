/**
 * What keeps a registered client alive (src/auth/storage/client-lifetime.ts, clientHeld): "only
 * what the client must outlive keeps it longer" — a sign-in under way, a grant, a refresh token.
 * A code or an access token is honoured only while its grant lives, and the grant holds the
 * client 30 days past its end: storing one must not write the client again.
 */
import { expect } from 'chai';
import { feedbackAuthPreset, notesAuthPreset } from '../../src/auth/index.js';
import { countedWrites } from '../support/counted-writes.js';
import { steppableWallClock } from '../support/wall-clock.js';
import { exchange, oidc, registerClient } from './support/client.js';
import { authorizedCode, signInAndExchange } from './support/flow.js';
import { type Harness, startHarness } from './support/harness.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const EMAIL = 'maker@example.com';

describe('When a client is signed in, trades its code and refreshes', () => {
  const store = countedWrites();
  let h: Harness;
  before(async () => {
    h = await startHarness({ ...feedbackAuthPreset, openReadStore: store.open });
  });
  after(async () => {
    await h.close();
    store.remove();
  });

  it('writes the client only for the sign-in steps it starts, its grant and each refresh token', async () => {
    const config = await registerClient(h.base, { name: 'Counted' });
    const clientWrites = () => store.writes('oauth_Client');
    store.reset();
    // two steps start (sign-in, then consent) and one grant is stored; the steps' results and
    // the code are saved too, and write the client no more
    const { pending, callback } = await authorizedCode(h, config, {
      scope: 'openid',
      email: EMAIL,
    });
    expect(clientWrites(), 'authorization').to.equal(3);
    store.reset();
    const tokens = await exchange(config, callback, pending);
    expect(clientWrites(), 'code exchange: its refresh token').to.equal(1);
    store.reset();
    await oidc.refreshTokenGrant(config, tokens.refresh_token as string);
    expect(clientWrites(), 'refresh: the rotated refresh token').to.equal(1);
  });
});

describe('When a notes client keeps refreshing past its first grant', () => {
  let h: Harness;
  let clock: ReturnType<typeof steppableWallClock>;
  beforeEach(async () => {
    clock = steppableWallClock();
    h = await startHarness({ ...notesAuthPreset });
  });
  afterEach(async () => {
    clock.restore();
    await h.close();
  });

  it('works past its unused lifetime and its first grant, kept alive by its refresh tokens', async () => {
    const config = await registerClient(h.base, { name: 'Monthly sync', algorithm: 'oauth2' });
    const scope = 'notes offline_access';
    const { tokens } = await signInAndExchange(h, config, { scope, email: EMAIL });
    // past OAUTH_UNUSED_CLIENT_HOURS (24): approved, so kept
    clock.step(DAY_MS + 1);
    const next = await oidc.refreshTokenGrant(config, tokens.refresh_token as string);
    // day 80: the rotation slides the grant to day 170 without storing it (adapter.ts
    // extendGrant): only the refresh token holds the client past the first grant's day 90 + 30
    clock.step(79 * DAY_MS);
    const rotated = await oidc.refreshTokenGrant(config, next.refresh_token as string);
    clock.step(50 * DAY_MS);
    const last = await oidc.refreshTokenGrant(config, rotated.refresh_token as string);
    await h.auth.verifyAccessToken(last.access_token);
  });
});
