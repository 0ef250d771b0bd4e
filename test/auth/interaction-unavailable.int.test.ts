/**
 * The sign-in pages while the store cannot be read (a lost MongoDB). Every failure to load the
 * sign-in was answered `400 This sign-in has expired`: the person was told to start connecting
 * again from the app, when the store would have answered a moment later.
 *
 * README (Security): "While the store refuses writes (a full disk, a lost MongoDB), every OAuth
 * endpoint answers 503 with `Retry-After` and the OAuth error `temporarily_unavailable` […] on
 * the error page at `/oauth/authorize` and the sign-in and consent pages".
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { feedbackAuthPreset } from '../../src/auth/index.js';
import { openEmbeddedReadStore } from '../../src/readstore/embedded/index.js';
import { type RefusedReads, refusedReads } from '../support/refused-reads.js';
import { tempDir } from '../support/stores.js';
import { CookieJar, formIn, request } from './support/browserless.js';
import { registerClient, startAuthorization } from './support/client.js';
import { type Harness, startHarness } from './support/harness.js';
import { expectUnavailablePage } from './support/refusals.js';

const EXPIRED = 'This sign-in has expired';
const interactions = (collection: string) => collection.endsWith('_Interaction');

describe('When the sign-in pages cannot read the store', () => {
  const dir = tempDir('auth-refused-reads-');
  let reads: RefusedReads;
  let h: Harness;
  let jar: CookieJar;
  let page: string;
  const warnings: string[] = [];

  before(async () => {
    h = await startHarness({
      ...feedbackAuthPreset,
      serviceName: 'Feedback',
      logger: { info: () => {}, warn: (line: string) => warnings.push(line) },
      openReadStore: async () => {
        reads = refusedReads(await openEmbeddedReadStore({ path: join(dir, 'store.sqlite') }));
        return reads.store;
      },
    });
    const config = await registerClient(h.base);
    const { url } = await startAuthorization(config, h.base, 'openid');
    jar = new CookieJar();
    const started = await request(jar, url);
    page = new URL(started.headers.get('location') ?? '', h.base).href;
  });
  afterEach(() => reads.refuse(() => false));
  after(async () => {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers the sign-in page 503 temporarily_unavailable with Retry-After, not expired', async () => {
    reads.refuse(interactions);
    await expectUnavailablePage(await request(jar, page));
  });

  // README (Logs): the interaction id is the `_interaction` cookie's value, "logged as :uid":
  // whoever reads the log could go on with a sign-in in flight
  it('logs the refusal without the interaction id', async () => {
    warnings.length = 0;
    reads.refuse(interactions);
    await expectUnavailablePage(await request(jar, page));
    const uid = new URL(page).pathname.split('/')[3]!;
    expect(warnings.join('\n')).to.match(/store unavailable: GET \/oauth\/interaction\/:uid/);
    expect(warnings.join('\n')).not.to.include(uid);
  });

  it('answers the sign-in form 503 temporarily_unavailable, and takes it once the store is back', async () => {
    const email = formIn(await (await request(jar, page)).text(), h.base, '/email');
    reads.refuse(interactions);
    const refused = await request(jar, email.action, { ...email.fields, email: 'r@example.com' });
    await expectUnavailablePage(refused);

    reads.refuse(() => false);
    const taken = await request(jar, email.action, { ...email.fields, email: 'r@example.com' });
    expect(taken.status).to.equal(303);
    // the code was sent: the page asks for it
    const next = await request(jar, new URL(taken.headers.get('location') ?? '', h.base).href);
    expect(next.status).to.equal(200);
    formIn(await next.text(), h.base, '/code');
  });

  it('still answers a sign-in without its cookie 400 expired', async () => {
    const res = await request(new CookieJar(), page);
    expect(res.status).to.equal(400);
    expect(await res.text()).to.include(EXPIRED);
  });

  it('still answers a sign-in whose interaction is gone 400 expired', async () => {
    const other = new CookieJar();
    const started = await request(
      other,
      (await startAuthorization(await registerClient(h.base), h.base, 'openid')).url,
    );
    const gone = new URL(started.headers.get('location') ?? '', h.base).href;
    // the interaction records are no more (expired ones read as absent; the other tests' too,
    // so this one runs last), the cookie still sent
    await h.readStore().collection('oauth_Interaction').deleteMany({});
    const res = await request(other, gone);
    expect(res.status).to.equal(400);
    expect(await res.text()).to.include(EXPIRED);
  });
});
