/**
 * A refresh or code exchange on MongoDB (MONGODB_URL) when the server goes away between the
 * request's writes: a TCP proxy between the read store and the server cuts every connection and
 * refuses new ones right after the first write to the refresh tokens is answered. The adapter
 * wrote the consume first and took it back when the next write failed — a second write the lost
 * server refused as well, so the presented token or code stayed used up: the client held a used
 * token and nothing new, and its retry read as reuse and revoked the grant.
 *
 * README (Security): "A refresh or code exchange the store cannot keep (a full disk) answers 503
 * `temporarily_unavailable` with `Retry-After`, and the refresh token or code presented stays
 * usable, so the retry is not taken for reuse"; "Refresh tokens rotate on every use; reusing a
 * rotated one revokes the whole grant." Runs only when MONGODB_URL is set (`npm run test:engines`).
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { type Document, MongoClient } from 'mongodb';
import { feedbackAuthPreset } from '../../src/auth/index.js';
import { openMongoReadStore } from '../../src/readstore/mongodb/index.js';
import { exchange, oidc, registerClient } from '../auth/support/client.js';
import { codeToExchange, signInAndExchange } from '../auth/support/flow.js';
import { type Harness, startHarness } from '../auth/support/harness.js';
import { errorOf, expectTemporarilyUnavailable, refreshRequest } from '../auth/support/refusals.js';
import { type MongoProxy, startMongoProxy } from '../support/mongo-proxy.js';

const mongoUrl = process.env.MONGODB_URL;
const EMAIL = 'outage@example.com';

/** the first write of a refresh token: the rotated one's mark, or its successor */
const refreshTokenWrite = (command: Document) =>
  typeof command.update === 'string' && command.update.endsWith('_RefreshToken');

if (!mongoUrl) {
  describe('OAuth on MongoDB when the server goes away mid-request', () => {
    it('MONGODB_URL not set: skipped', function () {
      console.log('    MONGODB_URL not set: OAuth outage suite skipped');
      this.skip();
    });
  });
} else {
  describe('When MongoDB goes away between the writes of a refresh or a code exchange', function () {
    // each refused request waits out the driver's server selection (10 s) once or twice
    this.timeout(120_000);
    const database = `oauth_outage_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
    const target = new URL(mongoUrl.replace(/^mongodb:/, 'http:'));
    let proxy: MongoProxy;
    let h: Harness;

    /** `attempt` while the server goes away after the first refresh-token write; then it is back */
    async function goneDuring<T>(attempt: () => Promise<T>): Promise<T> {
      const gone = proxy.goneAfter(refreshTokenWrite);
      try {
        const answer = await attempt();
        await gone; // the outage happened within the request
        return answer;
      } finally {
        proxy.restore();
      }
    }

    before(async () => {
      proxy = await startMongoProxy({ host: target.hostname, port: Number(target.port) });
      h = await startHarness({
        ...feedbackAuthPreset,
        serviceName: 'Feedback',
        openReadStore: () => openMongoReadStore({ url: proxy.url, database }),
      });
    });
    after(async () => {
      await h?.close();
      await proxy?.close();
      const client = new MongoClient(mongoUrl);
      try {
        await client.db(database).dropDatabase();
      } finally {
        await client.close();
      }
    });

    it('answers the refresh 503 temporarily_unavailable, and the same refresh token works once the server is back', async () => {
      const config = await registerClient(h.base);
      const { tokens } = await signInAndExchange(h, config, { scope: 'openid', email: EMAIL });
      const held = tokens.refresh_token as string;

      expectTemporarilyUnavailable(await goneDuring(() => refreshRequest(h.base, config, held)));

      const retried = await oidc.refreshTokenGrant(config, held);
      expect(retried.refresh_token).to.be.a('string').and.not.equal(held);
      // and it was used up then: presented again it is reuse
      expect(await errorOf(oidc.refreshTokenGrant(config, held))).to.equal('invalid_grant');
    });

    it('answers the code exchange 503 temporarily_unavailable, and the code works once the server is back', async () => {
      const {
        config,
        pending,
        callback,
        exchange: rawExchange,
      } = await codeToExchange(h, {
        scope: 'openid',
        email: EMAIL,
      });
      const refused = await goneDuring(rawExchange);
      expectTemporarilyUnavailable(refused);

      const tokens = await exchange(config, callback, pending);
      expect(tokens.refresh_token).to.be.a('string');
      expect(
        (await oidc.refreshTokenGrant(config, tokens.refresh_token as string)).access_token,
      ).to.be.a('string');
    });
  });
}
