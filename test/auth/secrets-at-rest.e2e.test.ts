/**
 * Issue 10 item 5: "Secrets at rest are readable by every local user. data/ is created 0755 and
 * store.sqlite and the mailbox 0644; the store holds the OAuth signing private keys and cookie
 * keys, and refresh tokens verbatim as document ids. Required: the data folder 0700 and its files
 * 0600 whatever the umask; refresh tokens, authorization codes and other bearer secrets stored
 * under a hash of their value; a test checks both."
 */
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { CookieJar } from '../auth/support/browserless.js';
import { type FeedbackHarness, startFeedback } from '../feedback/support/harness.js';
import { authorizeClient, oidc } from '../feedback/support/oauth.js';
import { feedbackAuthPreset } from '../../src/auth/index.js';
import type { StoredArtifact } from '../../src/auth/storage/adapter.js';
import { exchange, registerClient, startAuthorization } from './support/client.js';
import { signInAndExchange } from './support/flow.js';
import { type Harness, startHarness } from './support/harness.js';
import { tempDir } from '../support/stores.js';

const mode = (path: string) => statSync(path).mode & 0o777;

describe('When the service keeps its data on disk under a permissive umask', () => {
  let fb: FeedbackHarness;
  let dir: string;
  let umask: number;
  before(async () => {
    umask = process.umask(0o000);
    dir = join(tempDir('secrets-'), 'data');
    mkdirSync(dir, { mode: 0o755 }); // as an earlier version left it
    fb = await startFeedback({ env: { DATA_DIR: dir }, fixedPort: true });
    await fb.createMaker('max@acme.io');
  });
  after(async () => {
    await fb.stop();
    process.umask(umask);
  });

  it('makes the data folder 0700 and every file in it 0600', async () => {
    // a sign-in writes the dev mailbox too
    const jar = new CookieJar();
    await authorizeClient(fb, { email: 'max@acme.io', jar });
    expect(mode(dir).toString(8)).to.equal('700');
    const files = readdirSync(dir);
    expect(files).to.include.members(['store.sqlite', 'secret', 'feedback-mailbox.jsonl']);
    for (const file of files) {
      expect(mode(join(dir, file)).toString(8), file).to.equal('600');
    }
  });

  it('stores no refresh token, authorization code or session cookie in a readable form', async () => {
    const jar = new CookieJar();
    const pending = await authorizeClient(fb, { email: 'max@acme.io', jar });
    const code = pending.callback.searchParams.get('code') as string;
    const tokens = await exchange(pending.config, pending.callback, pending);
    const rotated = await oidc.refreshTokenGrant(pending.config, tokens.refresh_token as string);
    const session = /_session=([^;]+)/.exec(jar.header())?.[1] as string;
    expect(session, 'session cookie').to.be.a('string');
    await fb.restart(); // everything flushed to the data file
    const secrets = {
      code,
      refresh: tokens.refresh_token as string,
      rotated: rotated.refresh_token as string,
      session,
    };
    const stored = readdirSync(dir)
      .map((file) => readFileSync(join(dir, file)).toString('latin1'))
      .join('\n');
    for (const [name, value] of Object.entries(secrets)) {
      expect(stored.includes(value), `${name} found in the data folder`).to.equal(false);
    }
    // and the hashed token still works after the restart
    const again = await oidc.refreshTokenGrant(pending.config, rotated.refresh_token as string);
    expect(again.access_token).to.be.a('string');
  });

  it('keeps no copy of an interaction id (the interaction cookie) in an unfinished sign-in', async () => {
    // README: interaction cookies are "keyed by the SHA-256 of the value and kept without it";
    // an audit found the id in the stored `returnTo` (…/oauth/authorize/<id>)
    const config = await registerClient(fb.url, { name: 'Half-way App' });
    const started = await startAuthorization(config, fb.url, 'openid');
    const res = await fetch(started.url, { redirect: 'manual' });
    const location = res.headers.get('location') ?? '';
    const id = /\/interaction\/([^/?#]+)/.exec(location)?.[1] as string;
    expect(id, location).to.be.a('string');
    await fb.restart();
    const stored = readdirSync(dir)
      .map((file) => readFileSync(join(dir, file)).toString('latin1'))
      .join('\n');
    expect(stored.includes(id), 'interaction id found in the data folder').to.equal(false);
    // the sign-in can still go on: the interaction page is served for it
    const cookies = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const page = await fetch(new URL(location, fb.url), { headers: { cookie: cookies } });
    expect(page.status).to.equal(200);
  });
});

describe('When the store still holds refresh tokens under their own value (an earlier version)', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ ...feedbackAuthPreset });
  });
  after(() => h.close());

  it('moves them under their hash at start, and they keep working', async () => {
    const config = await registerClient(h.base);
    const { tokens } = await signInAndExchange(h, config, { scope: 'openid', email: 'a@b.io' });
    const refresh = tokens.refresh_token as string;
    const col = h.readStore().collection<StoredArtifact>('oauth_RefreshToken');
    const [doc] = await col.find({});
    const payload = { ...JSON.parse(doc!.payload), jti: refresh };
    await col.deleteOne({ _id: doc!._id });
    await col.insertOne({ ...doc!, _id: refresh, payload: JSON.stringify(payload) });
    await h.readStore().flush();
    await h.restart();
    const after = await h.readStore().collection<StoredArtifact>('oauth_RefreshToken').find({});
    expect(JSON.stringify(after)).not.to.include(refresh);
    expect((await oidc.refreshTokenGrant(config, refresh)).access_token).to.be.a('string');
  });
});
