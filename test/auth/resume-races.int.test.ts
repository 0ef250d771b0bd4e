/**
 * Two resumes of one sign-in that cross: the same browser follows the redirect back to
 * `/oauth/authorize/<uid>` twice at once (a double-submitted code or approval form, two tabs, a
 * double click). oidc-provider's resume reads the finished interaction, then destroys it, then
 * goes on: two resumes that had both read it before either destroyed it (several processes over
 * MongoDB, a slow round trip) both went on, and a finished consent sent the client two codes.
 * Here the store holds the reads of the interactions so that they cross whatever the timing.
 *
 * RFC 6749 §4.1.2: "The client MUST NOT use the authorization code more than once"; one
 * approval is one authorization, so it gives one code. The other resume gets oidc-provider's
 * error page (400, `invalid_request`: the interaction is gone), never a 500 and never a code.
 */
import { expect } from 'chai';
import { decodeJwt } from 'jose';
import type { HeldReads } from '../support/held-reads.js';
import { CookieJar, formIn, latestCode, request } from './support/browserless.js';
import { exchange, registerClient, startAuthorization } from './support/client.js';
import { harnessWithHeldReads } from './support/held-harness.js';
import type { Harness } from './support/harness.js';

const INTERACTIONS = 'oauth_Interaction';
const GRANTS = 'oauth_Grant';
const EMAIL = 'two-tabs@example.com';

/** the form ending in `suffix` on the page the redirects from `res` lead to */
async function formAfter(h: Harness, jar: CookieJar, res: Response, suffix: string) {
  let current = res;
  for (let hops = 0; hops < 5 && current.status === 303; hops++) {
    current = await request(jar, new URL(current.headers.get('location') ?? '', h.base).href);
  }
  const page = await current.text();
  expect(current.status, page.slice(0, 300)).to.equal(200);
  return formIn(page, h.base, suffix);
}

/** authorize → e-mail → code: the answer to the code form, a redirect to the sign-in's resume */
async function signedIn(h: Harness, jar: CookieJar) {
  const config = await registerClient(h.base);
  const pending = await startAuthorization(config, h.base, 'openid');
  const emailForm = await formAfter(h, jar, await request(jar, pending.url), '/email');
  const sent = await request(jar, emailForm.action, { ...emailForm.fields, email: EMAIL });
  const codeForm = await formAfter(h, jar, sent, '/code');
  const code = latestCode(h.mailboxPath, EMAIL);
  const resume = await request(jar, codeForm.action, { ...codeForm.fields, code });
  return { config, pending, resume };
}

/** the same resume followed twice at once, both reads of the interaction held until both came */
async function crossing(h: Harness, held: HeldReads, jar: CookieJar, resume: Response) {
  expect(resume.status).to.equal(303);
  const location = new URL(resume.headers.get('location') ?? '', h.base).href;
  expect(new URL(location).pathname).to.match(/^\/oauth\/authorize\/[^/]+$/);
  const met = held.hold(INTERACTIONS, 2);
  const answers = Promise.all([request(jar, location), request(jar, location)]);
  for (const release of await met) release();
  return Promise.all(
    (await answers).map(async (res) => ({
      status: res.status,
      location: res.headers.get('location'),
      text: await res.text(),
    })),
  );
}

type Outcome = Awaited<ReturnType<typeof crossing>>[number];

/** the one that went on, and the other's refusal: a 400 page naming the lost interaction */
function oneWentOn(outcomes: Outcome[]): Outcome {
  const on = outcomes.filter((o) => o.status === 303);
  expect(on, JSON.stringify(outcomes)).to.have.length(1);
  const refused = outcomes.find((o) => o.status !== 303) as Outcome;
  expect(refused.status, refused.text.slice(0, 300)).to.equal(400);
  expect(refused.text).to.include('invalid_request');
  expect(refused.text).to.include('already went on in another tab');
  expect(refused.location).to.equal(null);
  return on[0] as Outcome;
}

describe('When two resumes or approvals of one sign-in cross', function () {
  this.timeout(60_000);
  const server = harnessWithHeldReads();

  it('goes on to the consent page once; the other resume gets an error page', async () => {
    const { h, reads } = server;
    const jar = new CookieJar();
    const { resume } = await signedIn(h, jar);
    const went = oneWentOn(await crossing(h, reads, jar, resume));
    expect(new URL(went.location ?? '', h.base).pathname).to.match(/^\/oauth\/interaction\//);
  });

  it('sends the client one code for one approval; the other resume gets an error page', async () => {
    const { h, reads } = server;
    const jar = new CookieJar();
    const { config, pending, resume } = await signedIn(h, jar);
    const consent = await formAfter(h, jar, resume, '/confirm');
    const approved = await request(jar, consent.action, consent.fields);
    const went = oneWentOn(await crossing(h, reads, jar, approved));
    const callback = new URL(went.location ?? '', h.base);
    expect(callback.pathname).to.equal('/cb');
    expect(callback.searchParams.get('code')).to.be.a('string');
    const tokens = await exchange(config, callback, pending);
    expect(tokens.access_token).to.be.a('string');
  });

  it('makes one grant of two approvals of one consent that cross, the one the code names', async () => {
    // two grants, of which the code named one: the other, no token's, kept the app listed as
    // connected and its webhooks delivering after the app ended its own grant (RFC 7009)
    const { h, reads } = server;
    const jar = new CookieJar();
    const { config, pending, resume } = await signedIn(h, jar);
    const consent = await formAfter(h, jar, resume, '/confirm');
    const met = reads.hold(INTERACTIONS, 2);
    const approvals = Promise.all([
      request(jar, consent.action, consent.fields),
      request(jar, consent.action, consent.fields),
    ]);
    for (const release of await met) release();
    const [approved] = await approvals;
    const clientId = config.clientMetadata().client_id;
    const grants = await h.readStore().collection(GRANTS).find({ clientId });
    expect(grants.map((grant) => grant._id)).to.have.length(1);
    const went = await request(jar, new URL(approved?.headers.get('location') ?? '', h.base).href);
    const tokens = await exchange(config, new URL(went.headers.get('location') ?? ''), pending);
    expect(decodeJwt(tokens.access_token).grant_id).to.equal(grants[0]?._id);
  });
});
