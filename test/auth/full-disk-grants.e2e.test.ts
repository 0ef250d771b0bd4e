/**
 * Tokens and codes presented while the data file cannot grow (disk full). A refresh answered
 * `500 server_error`: oidc-provider had consumed the presented refresh token (rotation) and then
 * failed to store its successor, so the client held a used token and no new one, and its retry read
 * as reuse of a rotated token and revoked the grant — the person had to sign in again. A code
 * exchange lost its code the same way.
 *
 * README (Security, tokens at rest): "A refresh or code exchange the store cannot keep (a full
 * disk) answers 503 `temporarily_unavailable` with `Retry-After`, and the refresh token or code
 * presented stays usable, so the retry is not taken for reuse"; "Refresh tokens rotate on every
 * use; reusing a rotated one revokes the whole grant."
 */
import { expect } from 'chai';
import { notesAuthPreset } from '../../src/auth/index.js';
import { FEEDBACK_OAUTH_PREFIX } from '../../src/feedback/auth/settings.js';
import type { ReadStore } from '../../src/readstore/types.js';
import { type FeedbackHarness, startFeedback } from '../feedback/support/harness.js';
import { authorizeClient } from '../feedback/support/oauth.js';
import { fillDisk, freeDisk, fullOnWrite } from '../support/full-disk.js';
import { exchange, oidc, registerClient } from './support/client.js';
import { codeToExchange, signInAndExchange } from './support/flow.js';
import {
  errorOf,
  expectTemporarilyUnavailable,
  refreshRequest,
  tokenRequest,
} from './support/refusals.js';
import { type Harness, startHarness } from './support/harness.js';

const EMAIL = 'full-disk@example.com';

/** fills the disk (`fill`) around `attempt` and makes room again, whatever it does */
async function onFullDisk<T>(
  store: () => ReadStore,
  attempt: () => Promise<T>,
  fill = () => fillDisk(store()),
): Promise<T> {
  fill();
  try {
    return await attempt();
  } finally {
    freeDisk(store());
  }
}

describe('When a client presents a refresh token or a code while the data file cannot grow (disk full)', function () {
  this.timeout(60_000);
  let fb: FeedbackHarness;
  const server = () => ({ base: fb.url, mailboxPath: fb.mailboxPath });
  const store = () => fb.deps().readStore;
  const signIn = async () => {
    const config = await registerClient(fb.url);
    const { tokens } = await signInAndExchange(server(), config, { scope: 'openid', email: EMAIL });
    return { config, held: tokens.refresh_token as string };
  };

  before(async () => {
    // the base URL is the issuer: tokens survive a restart only on the same port
    fb = await startFeedback({ fixedPort: true });
    await fb.createUser(EMAIL);
  });
  after(async () => fb.stop());

  it('answers a refresh 503 temporarily_unavailable with Retry-After, and the same refresh token works once there is room', async () => {
    const { config, held } = await signIn();
    expectTemporarilyUnavailable(
      await onFullDisk(store, () => refreshRequest(fb.url, config, held)),
    );

    const retried = await oidc.refreshTokenGrant(config, held);
    expect(retried.refresh_token).to.be.a('string').and.not.equal(held);
    // still rotated, and durably: after a restart the used token is reuse
    await fb.restart();
    expect(await errorOf(oidc.refreshTokenGrant(config, held))).to.equal('invalid_grant');
  });

  it('keeps the refresh token usable when the disk fills between its consumption and the save of its successor', async () => {
    const { config, held } = await signIn();
    const refused = await onFullDisk(
      store,
      () => refreshRequest(fb.url, config, held),
      // room for the used token's mark, none for a new refresh token
      () => fullOnWrite(store(), `${FEEDBACK_OAUTH_PREFIX}_RefreshToken`, { onlyNew: true }),
    );
    expectTemporarilyUnavailable(refused);

    const retried = await oidc.refreshTokenGrant(config, held);
    expect(retried.refresh_token).to.be.a('string').and.not.equal(held);
  });

  it('answers a code exchange 503 temporarily_unavailable, and the code works once there is room', async () => {
    const pending = await authorizeClient(fb, { email: EMAIL });
    const refused = await onFullDisk(store, () =>
      tokenRequest(fb.url, {
        grant_type: 'authorization_code',
        code: pending.callback.searchParams.get('code') as string,
        code_verifier: pending.verifier,
        redirect_uri: `${fb.url}/cb`,
        client_id: pending.clientId,
      }),
    );
    expectTemporarilyUnavailable(refused);

    const tokens = await exchange(pending.config, pending.callback, pending);
    expect(tokens.refresh_token).to.be.a('string');
  });

  it('still takes two refreshes with one token sent together as reuse: at most one succeeds, and the grant is revoked', async () => {
    // RFC 9700 §4.14.2: a rotated refresh token presented again revokes the grant
    const { config, held } = await signIn();
    const both = await Promise.allSettled([
      oidc.refreshTokenGrant(config, held),
      oidc.refreshTokenGrant(config, held),
    ]);
    const won = both.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const refused = both.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    expect(won.length, 'refreshes that got a token').to.be.at.most(1);
    expect(refused.map((e) => (e as oidc.ResponseBodyError).error)).to.include('invalid_grant');
    for (const successor of won) {
      const next = oidc.refreshTokenGrant(config, successor.refresh_token as string);
      expect(await errorOf(next)).to.equal('invalid_grant');
    }
  });
});

describe('When a notes client exchanges a code for an access token alone and the disk is full when the code is used up', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => {
    h = await startHarness({ ...notesAuthPreset, serviceName: 'Notes' });
  });
  after(async () => h.close());

  it('answers 503 temporarily_unavailable instead of the token, and the code works once there is room', async () => {
    // without offline_access no refresh token is saved after the code: its use is stored alone
    const {
      config,
      pending,
      callback,
      exchange: rawExchange,
    } = await codeToExchange(h, {
      scope: 'notes',
      email: EMAIL,
      algorithm: 'oauth2',
    });
    const refused = await onFullDisk(h.readStore, rawExchange, () =>
      fullOnWrite(h.readStore(), 'oauth_AuthorizationCode'),
    );
    expectTemporarilyUnavailable(refused);

    const tokens = await exchange(config, callback, pending);
    expect(tokens.access_token).to.be.a('string');
    expect(tokens.refresh_token).to.equal(undefined);
  });
});
