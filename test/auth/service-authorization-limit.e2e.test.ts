/**
 * The authorization request limit as each service configures it (AUTHORIZATION_REQUESTS_PER_IP,
 * AUTHORIZATION_WINDOW_MINUTES), on the running services: authorization-limits.int.test.ts holds
 * the auth module to its figures, this holds the services to passing them on. README (Security,
 * Authorization requests): "requests to `/oauth/authorize` and `/oauth/par` together are limited
 * per client IP, 60 per 10 minutes ... then 429 with `Retry-After`". A window taken in seconds
 * instead of minutes would let one address make the store keep sixty times as many requests.
 */
import { expect } from 'chai';
import { startFeedback } from '../feedback/support/harness.js';
import { startNotesE2e } from '../notes/e2e/support.js';
import { registerClient } from './support/client.js';

/** sixty-one authorization requests from one address: the statuses and the last answer */
async function sixtyOne(base: string, algorithm: 'oidc' | 'oauth2', scope: string) {
  const clientId = (await registerClient(base, { algorithm })).clientMetadata().client_id;
  const url = new URL(`${base}/oauth/authorize`);
  url.search = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: `${base}/cb`,
    scope,
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  }).toString();
  const statuses: number[] = [];
  let last: Response | null = null;
  for (let i = 0; i < 61; i++) {
    last = await fetch(url, { redirect: 'manual' });
    statuses.push(last.status);
  }
  return { statuses, last: last as Response };
}

function expectTheWindowsLimit({ statuses, last }: Awaited<ReturnType<typeof sixtyOne>>) {
  expect(statuses.slice(0, 60)).to.deep.equal(Array(60).fill(303));
  expect(statuses[60]).to.equal(429);
  // the wait is until the first of the sixty, moments ago, is 10 minutes old
  expect(Number(last.headers.get('retry-after'))).to.be.within(560, 600);
}

describe('When one address sends authorization requests to the running services (e2e)', function () {
  this.timeout(60_000);
  // the README's default figure (the test settings widen it for the other tests' sign-ins)
  const env = { AUTHORIZATION_REQUESTS_PER_IP: '60' };

  it('feedback refuses the 61st in 10 minutes', async () => {
    const fb = await startFeedback({ env });
    try {
      expectTheWindowsLimit(await sixtyOne(fb.url, 'oidc', 'openid'));
    } finally {
      await fb.stop();
    }
  });

  it('notes refuses the 61st in 10 minutes', async () => {
    const notes = await startNotesE2e(env);
    try {
      expectTheWindowsLimit(await sixtyOne(notes.base, 'oauth2', 'notes'));
    } finally {
      await notes.stop();
    }
  });
});
