/**
 * What a store's refusal, a token's reuse or a client gone is answered with at the OAuth endpoints
 * (src/auth/unavailable.ts, src/auth/storage/reuse.ts, src/auth/storage/client-lifetime.ts), and
 * token requests as a client sends them, answered as they come (openid-client hides 503s).
 */
import { expect } from 'chai';
import type { oidc } from './client.js';

export async function tokenRequest(base: string, params: Record<string, string>) {
  const res = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params),
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() };
}

export type TokenAnswer = Awaited<ReturnType<typeof tokenRequest>>;

export const refreshRequest = (base: string, config: oidc.Configuration, refreshToken: string) =>
  tokenRequest(base, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: config.clientMetadata().client_id,
  });

/** what a store refusal is answered with: RFC 6749's code for a temporary condition */
export function expectTemporarilyUnavailable(answer: TokenAnswer) {
  expect(answer.status, JSON.stringify(answer.body)).to.equal(503);
  expect(answer.body.error).to.equal('temporarily_unavailable');
  expect(answer.body.error_description).to.be.a('string');
  expect(Number(answer.retryAfter)).to.be.at.least(1);
}

/** the error page a person sees, naming the OAuth error */
export async function expectUnavailablePage(res: Response) {
  const html = await res.text();
  expect(res.status, html.slice(0, 300)).to.equal(503);
  expect(Number(res.headers.get('retry-after'))).to.be.at.least(1);
  expect(res.headers.get('content-type')).to.match(/^text\/html/);
  expect(html).to.include('temporarily_unavailable');
}

/** the OAuth error an openid-client call was refused with (null when it succeeded) */
export const errorOf = (attempt: Promise<unknown>) =>
  attempt.then(
    () => null,
    (error: unknown) => (error as oidc.ResponseBodyError).error ?? error,
  );

/** of two answers to one token presented twice: exactly one refused as reuse, the other's tokens */
export function oneRefused(answers: TokenAnswer[]): TokenAnswer['body'] {
  const statuses = answers.map((answer) => answer.status).sort();
  const said = answers.map((answer) => answer.body.error ?? 'tokens').join(', ');
  expect(statuses, said).to.deep.equal([200, 400]);
  const refused = answers.find((answer) => answer.status === 400) as TokenAnswer;
  expect(refused.body.error).to.equal('invalid_grant');
  return (answers.find((answer) => answer.status === 200) as TokenAnswer).body;
}

/**
 * How the authorization endpoint answers a request naming `clientId`: 'sign-in' (on to the
 * sign-in page), 'invalid_client' (no such client, or expired), or the status and page.
 */
export async function authorizeAnswer(base: string, clientId: string): Promise<string> {
  const url = new URL(`${base}/oauth/authorize`);
  for (const [name, value] of Object.entries({
    client_id: clientId,
    redirect_uri: `${base}/cb`,
    response_type: 'code',
    scope: 'openid',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  }))
    url.searchParams.set(name, value);
  const res = await fetch(url, { redirect: 'manual' });
  if (res.status === 303) return 'sign-in';
  const page = await res.text();
  return /invalid_client/.test(page) ? 'invalid_client' : `${res.status}: ${page.slice(0, 200)}`;
}
