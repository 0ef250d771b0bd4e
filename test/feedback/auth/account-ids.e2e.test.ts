/**
 * A maker's user id reaches every webhook receiver (`actor.id`, `item.createdBy`) and API answer,
 * so it must not confirm a guessed address: "ids derived from an e-mail address are keyed with
 * the deployment's secret" — a new account's id is an HMAC of its address, not its plain hash,
 * and two deployments (two secrets) give one address two ids. Accounts made before that keep
 * the unkeyed id they were made with: signing in again with that address is the same user.
 * (While the read model does not know such an account yet: test/feedback/actions/accounts.)
 */
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { decodeJwt } from 'jose';
import { type FeedbackHarness, startFeedback } from '../support/harness.js';
import { connectClient } from '../support/oauth.js';

/** the id an account of `email` was given before ids were keyed */
const unkeyedIdOf = (email: string) =>
  `u_${createHash('sha256').update(email).digest('hex').slice(0, 24)}`;

async function signedInAs(fb: FeedbackHarness, email: string) {
  const client = await connectClient(fb, { email });
  return String(decodeJwt(client.accessToken).sub);
}

describe('When someone signs in to the feedback service with an e-mail address (e2e)', () => {
  let fb: FeedbackHarness;
  before(async () => {
    fb = await startFeedback();
  });
  after(() => fb.stop());

  it('gives a new account an id that is not the plain hash of its address, and another on another deployment', async () => {
    const email = 'ada@acme.io';
    const id = await signedInAs(fb, email);
    expect(id).to.match(/^u_[0-9a-f]{24}$/);
    expect(id).to.not.equal(unkeyedIdOf(email));
    expect(await signedInAs(fb, email), 'the same address again').to.equal(id);

    const other = await startFeedback(); // its own DATA_DIR, so its own secret
    try {
      const there = await signedInAs(other, email);
      expect(there).to.match(/^u_[0-9a-f]{24}$/);
      expect(there, 'the id on a deployment with another secret').to.not.equal(id);
    } finally {
      await other.stop();
    }
  });

  it('signs a pre-upgrade account in as itself (its events as an old version wrote them)', async () => {
    const email = 'old@acme.io';
    const legacyId = unkeyedIdOf(email);
    await fb.runtime.runtime.stores.rawEventStore.appendToStream(
      `user-${legacyId}`,
      [
        {
          type: 'UserCreated',
          data: { userId: legacyId, email, displayName: 'old' },
          metadata: {
            actor: legacyId,
            occurredAt: fb.clock.now(),
            correlationId: 'pre-upgrade',
            causationId: null,
          },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    await fb.caughtUp();
    expect(await signedInAs(fb, email)).to.equal(legacyId);
  });
});
