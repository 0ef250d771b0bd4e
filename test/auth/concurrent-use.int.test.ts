/**
 * One refresh token (or code) presented twice at the same moment on the embedded store, as a
 * thief using a stolen refresh token beside the legitimate client does. The consume marked the
 * token in memory over whatever it held: a request that had read the token unused before the
 * other's consume (oidc-provider reads it, then the grant and the account, then consumes it)
 * marked it again, and both answered tokens. That happens whenever the account lookup waits for
 * the network (notes over KurrentDB: two 200s in 20 of 20 tries). Here the store holds each
 * request's read of the grant, between the two, until the other's has arrived, whatever the
 * timing; then lets both go on at once, or one only after the other has answered.
 *
 * README (Security): "Refresh tokens rotate on every use; reusing a rotated one revokes the whole
 * grant", also "when two requests present one refresh token or code at the same moment".
 * RFC 9700 §4.14.2: the server cannot tell which of the two is the attacker, so it revokes both.
 */
import { expect } from 'chai';
import { feedbackAuthPreset, notesAuthPreset, Unauthenticated } from '../../src/auth/index.js';
import { type HeldReads, heldReads } from '../support/held-reads.js';
import { oidc, registerClient } from './support/client.js';
import { codeToExchange, signInAndExchange } from './support/flow.js';
import { type Harness, startHarness } from './support/harness.js';
import { errorOf, oneRefused, refreshRequest, type TokenAnswer } from './support/refusals.js';

const EMAIL = 'twice@example.com';
/** read by oidc-provider between reading the token and consuming it (validateGrant) */
const GRANTS = 'oauth_Grant';

type Attempt = () => Promise<TokenAnswer>;

/** both attempts at once, each held at its read of the grant until the other's is there */
async function together(held: HeldReads, attempts: Attempt[]) {
  const met = held.hold(GRANTS, attempts.length);
  const answers = Promise.all(attempts.map((attempt) => attempt()));
  for (const release of await met) release();
  return answers;
}

/** both held there as well, and the second let go on only once the first has answered */
async function oneAfterTheOther(held: HeldReads, [first, second]: [Attempt, Attempt]) {
  const met = held.hold(GRANTS, 2);
  const answers = [first(), second()];
  const [firstRelease, secondRelease] = await met;
  firstRelease();
  await Promise.race(answers);
  secondRelease();
  return Promise.all(answers);
}

const refusedAccessToken = async (h: Harness, accessToken: string) =>
  expect(await h.auth.verifyAccessToken(accessToken).catch((e) => e)).to.be.instanceOf(
    Unauthenticated,
  );

describe('When one refresh token or code is presented twice at the same moment on the embedded store', function () {
  this.timeout(60_000);
  const reads = { feedback: heldReads(), notes: heldReads() };
  let feedback: Harness;
  let notes: Harness;
  const signIn = async () => {
    const config = await registerClient(feedback.base);
    const { tokens } = await signInAndExchange(feedback, config, { scope: 'openid', email: EMAIL });
    return { config, held: tokens.refresh_token as string };
  };

  before(async () => {
    feedback = await startHarness({
      ...feedbackAuthPreset,
      serviceName: 'Feedback',
      openReadStore: reads.feedback.open,
    });
    notes = await startHarness({
      ...notesAuthPreset,
      serviceName: 'Notes',
      openReadStore: reads.notes.open,
    });
  });
  after(async () => {
    await feedback?.close();
    await notes?.close();
    reads.feedback.remove();
    reads.notes.remove();
  });

  it('refuses one refresh as reuse and revokes the grant, so the other refresh’s tokens stop working too', async () => {
    const { config, held } = await signIn();

    const refresh = () => refreshRequest(feedback.base, config, held);
    const survivor = oneRefused(await together(reads.feedback, [refresh, refresh]));

    const next = oidc.refreshTokenGrant(config, survivor.refresh_token);
    expect(await errorOf(next)).to.equal('invalid_grant');
    await refusedAccessToken(feedback, survivor.access_token);
    expect(await errorOf(oidc.refreshTokenGrant(config, held))).to.equal('invalid_grant');
  });

  it('refuses a refresh that read the token before the other used it, and the revocation outlives a restart', async () => {
    const { config, held } = await signIn();

    const refresh = () => refreshRequest(feedback.base, config, held);
    const survivor = oneRefused(await oneAfterTheOther(reads.feedback, [refresh, refresh]));

    // the refusal was the last write: only its own flush stores the revocation
    await feedback.restart();
    await refusedAccessToken(feedback, survivor.access_token);
    const next = oidc.refreshTokenGrant(config, survivor.refresh_token);
    expect(await errorOf(next)).to.equal('invalid_grant');
  });

  it('refuses one exchange of a code as reuse and revokes the grant the other exchange got', async () => {
    const { config, exchange } = await codeToExchange(feedback, {
      scope: 'openid',
      email: EMAIL,
      algorithm: 'oidc',
    });

    const survivor = oneRefused(await together(reads.feedback, [exchange, exchange]));

    const next = oidc.refreshTokenGrant(config, survivor.refresh_token);
    expect(await errorOf(next)).to.equal('invalid_grant');
    await refusedAccessToken(feedback, survivor.access_token);
  });

  it('refuses an exchange of a code that yields no refresh token after the other’s, and revokes its access token for good', async () => {
    // notes issues a refresh token only for offline_access: the code's use is the only write
    const { exchange } = await codeToExchange(notes, {
      scope: 'notes',
      email: EMAIL,
      algorithm: 'oauth2',
    });

    const survivor = oneRefused(await oneAfterTheOther(reads.notes, [exchange, exchange]));

    expect(survivor.refresh_token).to.equal(undefined);
    await refusedAccessToken(notes, survivor.access_token);
    await notes.restart();
    await refusedAccessToken(notes, survivor.access_token);
  });
});
