/**
 * Wrong guesses at one sign-in code sent to two API processes over one MongoDB (MONGODB_URL) at
 * the same moment, as behind a load balancer: two authorization servers in-process, each over its
 * own read store connection to one database, both known by the first's address. README
 * (Security, Sign-in throttles): "5 tries per code". src/auth/interaction/email-code.ts: "Counts
 * the try before comparing, as one compare-and-set on the count read: guesses that arrive
 * together (several API processes, a slow store) each take their own try, so no more than
 * CODE_MAX_ATTEMPTS are ever compared." A TCP proxy (test/support/mongo-proxy.ts) holds each
 * guess's count until every guess has read the code, whatever the timing.
 * Runs only when MONGODB_URL is set (`npm run test:engines`).
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { type Document, MongoClient } from 'mongodb';
import { feedbackAuthPreset } from '../../src/auth/index.js';
import { openMongoReadStore } from '../../src/readstore/mongodb/index.js';
import { request } from '../auth/support/browserless.js';
import { registerClient } from '../auth/support/client.js';
import { type Harness, startHarness } from '../auth/support/harness.js';
import { askForCode, codeOutcome, mailedCodes } from '../auth/support/sign-in.js';
import { type MongoProxy, startMongoProxy } from '../support/mongo-proxy.js';

const mongoUrl = process.env.MONGODB_URL;
const TOO_OFTEN = 'That code has expired or was tried too often. Ask for a new one.';
const GUESSES = 7;

/** a try counted on a code: the only update of the codes collection once a code is sent */
const codeCounted = (command: Document) =>
  typeof command.update === 'string' && command.update.endsWith('_email_codes');

if (!mongoUrl) {
  describe('Sign-in code tries across two processes over one MongoDB', () => {
    it('MONGODB_URL not set: skipped', function () {
      console.log('    MONGODB_URL not set: sign-in code tries across processes suite skipped');
      this.skip();
    });
  });
} else {
  describe('When guesses at one sign-in code reach two API processes over one MongoDB at once', function () {
    this.timeout(60_000);
    const database = `sign_in_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
    const target = new URL(mongoUrl.replace(/^mongodb:/, 'http:'));
    let proxy: MongoProxy;
    let a: Harness;
    let b: Harness;

    before(async () => {
      proxy = await startMongoProxy({ host: target.hostname, port: Number(target.port) });
      const openReadStore = () => openMongoReadStore({ url: proxy.url, database });
      a = await startHarness({ ...feedbackAuthPreset, openReadStore });
      // after A: B reads the keys A made (cookies, CSRF tokens and code hashes are A's)
      b = await startHarness({ ...feedbackAuthPreset, openReadStore, issuer: a.base });
    });
    after(async () => {
      await a?.close();
      await b?.close();
      await proxy?.close();
      const client = new MongoClient(mongoUrl);
      try {
        await client.db(database).dropDatabase();
      } finally {
        await client.close();
      }
    });

    it(`compares only 5 of ${GUESSES} wrong guesses split across both, each told the tries truly left`, async () => {
      const config = await registerClient(a.base);
      const sent = await askForCode(a, config, 'burst@a.io');
      const form = sent.codeForm as NonNullable<typeof sent.codeForm>;
      const code = mailedCodes(a.mailboxPath).at(-1) as string;
      const wrong = code === '000000' ? '000001' : '000000';
      const at = (base: string) => new URL(new URL(form.action).pathname, base).href;
      const submit = (i: number) =>
        request(sent.jar, at(i % 2 ? b.base : a.base), { ...form.fields, code: wrong });
      // B serves the sign-in A began: its page asks for the code
      const page = await request(sent.jar, at(b.base).replace(/\/code$/, ''));
      expect(await page.text()).to.include(new URL(form.action).pathname);

      const met = proxy.holdUntil(codeCounted, GUESSES);
      const answers = await Promise.all(Array.from({ length: GUESSES }, (_, i) => submit(i)));
      await met; // every guess had read the code before any try was counted

      expect((await Promise.all(answers.map(codeOutcome))).sort()).to.deep.equal([
        `400 ${TOO_OFTEN}`,
        `400 ${TOO_OFTEN}`,
        `400 ${TOO_OFTEN}`,
        '400 That code is not right. 1 attempt(s) left.',
        '400 That code is not right. 2 attempt(s) left.',
        '400 That code is not right. 3 attempt(s) left.',
        '400 That code is not right. 4 attempt(s) left.',
      ]);
    });
  });
}
