/**
 * One refresh token (or code) presented twice at the same moment on MongoDB (MONGODB_URL), as a
 * thief using a stolen refresh token beside the legitimate client does. Each request read the
 * token unused, saved its successor and marked the token used: both answered tokens, and reuse
 * detection never fired. A TCP proxy between the read store and the server (test/support/
 * mongo-proxy.ts) holds each request's first write until the other's has arrived, so both have
 * read the token unused before either marks it, whatever the timing.
 *
 * README (Security): "Refresh tokens rotate on every use; reusing a rotated one revokes the whole
 * grant", also "when two requests present one refresh token or code at the same moment".
 * RFC 9700 §4.14.2: the server cannot tell which of the two is the attacker, so it revokes both.
 * Runs only when MONGODB_URL is set (`npm run test:engines`).
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { type Document, MongoClient } from 'mongodb';
import { feedbackAuthPreset, notesAuthPreset, Unauthenticated } from '../../src/auth/index.js';
import { openMongoReadStore } from '../../src/readstore/mongodb/index.js';
import { oidc, registerClient } from '../auth/support/client.js';
import { codeToExchange, signInAndExchange } from '../auth/support/flow.js';
import { type Harness, startHarness } from '../auth/support/harness.js';
import { errorOf, oneRefused, refreshRequest, type TokenAnswer } from '../auth/support/refusals.js';
import { type MongoProxy, startMongoProxy } from '../support/mongo-proxy.js';

const mongoUrl = process.env.MONGODB_URL;
const EMAIL = 'twice@example.com';

/** a write to `model`'s collection: `upsert` the save of a new token, otherwise a mark */
const writeTo = (model: string, upsert: boolean) => (command: Document) =>
  typeof command.update === 'string' &&
  command.update.endsWith(`_${model}`) &&
  Boolean(command.updates?.[0]?.upsert) === upsert;

if (!mongoUrl) {
  describe('OAuth on MongoDB when one token is presented twice at once', () => {
    it('MONGODB_URL not set: skipped', function () {
      console.log('    MONGODB_URL not set: OAuth concurrent-use suite skipped');
      this.skip();
    });
  });
} else {
  describe('When one refresh token or code is presented twice at the same moment on MongoDB', function () {
    this.timeout(60_000);
    const run = randomUUID().replaceAll('-', '').slice(0, 12);
    const databases = [`oauth_twice_${run}_f`, `oauth_twice_${run}_n`];
    const target = new URL(mongoUrl.replace(/^mongodb:/, 'http:'));
    let proxy: MongoProxy;
    let feedback: Harness;
    let notes: Harness;

    /** both `attempts` at once, each held at its first write matching `at` until both are there */
    async function together(
      at: (command: Document) => boolean,
      attempts: (() => Promise<TokenAnswer>)[],
    ) {
      const met = proxy.holdUntil(at, attempts.length);
      const answers = await Promise.all(attempts.map((attempt) => attempt()));
      await met; // they did meet there
      return answers;
    }

    before(async () => {
      proxy = await startMongoProxy({ host: target.hostname, port: Number(target.port) });
      feedback = await startHarness({
        ...feedbackAuthPreset,
        serviceName: 'Feedback',
        openReadStore: () => openMongoReadStore({ url: proxy.url, database: databases[0] }),
      });
      notes = await startHarness({
        ...notesAuthPreset,
        serviceName: 'Notes',
        openReadStore: () => openMongoReadStore({ url: proxy.url, database: databases[1] }),
      });
    });
    after(async () => {
      await feedback?.close();
      await notes?.close();
      await proxy?.close();
      const client = new MongoClient(mongoUrl);
      try {
        for (const database of databases) await client.db(database).dropDatabase();
      } finally {
        await client.close();
      }
    });

    it('refuses one refresh as reuse and revokes the grant, so the other refresh’s tokens stop working too', async () => {
      const h = feedback;
      const config = await registerClient(h.base);
      const { tokens } = await signInAndExchange(h, config, { scope: 'openid', email: EMAIL });
      const held = tokens.refresh_token as string;

      // each request's successor save is held until the other's is there: both read `held` unused
      const refresh = () => refreshRequest(h.base, config, held);
      const survivor = oneRefused(
        await together(writeTo('RefreshToken', true), [refresh, refresh]),
      );

      expect(await errorOf(oidc.refreshTokenGrant(config, survivor.refresh_token))).to.equal(
        'invalid_grant',
      );
      const revoked = await h.auth.verifyAccessToken(survivor.access_token).catch((e) => e);
      expect(revoked).to.be.instanceOf(Unauthenticated);
      expect(await errorOf(oidc.refreshTokenGrant(config, held))).to.equal('invalid_grant');
    });

    it('refuses one exchange of a code as reuse and revokes the grant the other exchange got', async () => {
      const h = feedback;
      const { config, exchange } = await codeToExchange(h, {
        scope: 'openid',
        email: EMAIL,
        algorithm: 'oidc',
      });

      // the refresh token each exchange saves is held until the other's is there
      const survivor = oneRefused(
        await together(writeTo('RefreshToken', true), [exchange, exchange]),
      );

      expect(await errorOf(oidc.refreshTokenGrant(config, survivor.refresh_token))).to.equal(
        'invalid_grant',
      );
      const revoked = await h.auth.verifyAccessToken(survivor.access_token).catch((e) => e);
      expect(revoked).to.be.instanceOf(Unauthenticated);
    });

    it('refuses one exchange of a code that yields no refresh token, and revokes the other’s access token', async () => {
      // notes issues a refresh token only for offline_access: the code's use is the only write
      const h = notes;
      const { exchange } = await codeToExchange(h, {
        scope: 'notes',
        email: EMAIL,
        algorithm: 'oauth2',
      });

      const survivor = oneRefused(
        await together(writeTo('AuthorizationCode', false), [exchange, exchange]),
      );

      expect(survivor.refresh_token).to.equal(undefined);
      const revoked = await h.auth.verifyAccessToken(survivor.access_token).catch((e) => e);
      expect(revoked).to.be.instanceOf(Unauthenticated);
    });
  });
}
