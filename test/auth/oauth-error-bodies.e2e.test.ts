/**
 * A body the service cannot read at an OAuth endpoint a client calls is refused as an OAuth error
 * object, as every other error there: RFC 6749 §5.2 (`{"error": <code>, "error_description": …}`),
 * RFC 7009 §2.2.1 (revocation), RFC 7591 §3.2.2 (registration), RFC 9126 §2.3 (PAR, and 413 for a
 * request too large). The revocation and PAR endpoints answered the service's REST envelope
 * (`{"error": "request body is too large: …", "code": "invalid-argument"}`) for a body their parser
 * refused — too large, a Content-Encoding or charset it cannot read — and openid-client handed
 * that sentence to its caller as the OAuth error code.
 */
import { expect } from 'chai';
import { type FeedbackHarness, startFeedback } from '../feedback/support/harness.js';
import { type NotesE2e, startNotesE2e } from '../notes/e2e/support.js';
import { oidc, registerClient } from './support/client.js';

async function expectOAuthError(res: Response, status: number, error: string) {
  const text = await res.text();
  expect(res.status, text).to.equal(status);
  expect(res.headers.get('content-type')).to.match(/^application\/json/);
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(Object.keys(body).sort(), text).to.deep.equal(['error', 'error_description']);
  expect(body.error, text).to.equal(error);
  expect(body.error_description).to.be.a('string').and.not.be.empty;
}

const post = (url: string, headers: Record<string, string>, body: string) =>
  fetch(url, { method: 'POST', headers, body });
const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

const refusedBy = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

const SERVICES = [
  ['feedback', 'oidc'],
  ['notes', 'oauth2'],
] as const;

for (const [name, algorithm] of SERVICES) {
  describe(`When a client sends the ${name} OAuth endpoints a body they cannot read (e2e)`, function () {
    this.timeout(30_000);
    let base: string;
    let stop: () => Promise<void>;
    before(async () => {
      if (name === 'feedback') {
        const fb: FeedbackHarness = await startFeedback();
        [base, stop] = [fb.url, () => fb.stop()];
      } else {
        const notes: NotesE2e = await startNotesE2e();
        [base, stop] = [notes.base, () => notes.stop()];
      }
    });
    after(() => stop());

    it('refuses a revocation too large to read with invalid_request (openid-client, RFC 7009 §2.2.1)', async () => {
      const config = await registerClient(base, { algorithm });
      const refusal = await refusedBy(oidc.tokenRevocation(config, 'x'.repeat(20_000)));
      expect(refusal).to.be.instanceOf(oidc.ResponseBodyError);
      const { status, error, error_description } = refusal as oidc.ResponseBodyError;
      expect([status, error]).to.deep.equal([400, 'invalid_request']);
      expect(error_description).to.match(/too large/);
    });

    it('refuses a pushed request too large to read with 413 invalid_request (openid-client, RFC 9126 §2.3)', async () => {
      const config = await registerClient(base, { algorithm });
      const refusal = await refusedBy(
        oidc.buildAuthorizationUrlWithPAR(config, {
          redirect_uri: `${base}/cb`,
          code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
          code_challenge_method: 'S256',
          state: 'x'.repeat(60_000),
        }),
      );
      expect(refusal).to.be.instanceOf(oidc.ResponseBodyError);
      const { status, error } = refusal as oidc.ResponseBodyError;
      expect([status, error]).to.deep.equal([413, 'invalid_request']);
    });

    it('refuses a Content-Encoding or charset it cannot read at revocation and PAR as OAuth errors', async () => {
      for (const path of ['/oauth/revoke', '/oauth/par']) {
        const url = `${base}${path}`;
        const cases: Array<Record<string, string>> = [
          { 'content-type': FORM, 'content-encoding': 'x-unknown' },
          { 'content-type': `${FORM}; charset=koi8-r` },
          { 'content-type': FORM, 'content-encoding': 'gzip' },
        ];
        for (const headers of cases) {
          await expectOAuthError(await post(url, headers, 'token=a.b.c'), 400, 'invalid_request');
        }
      }
    });

    it('refuses every unreadable registration as an OAuth error object (RFC 7591 §3.2.2)', async () => {
      const url = `${base}/oauth/register`;
      const big = JSON.stringify({
        client_name: 'Big',
        client_uri: `https://${'x'.repeat(20_000)}`,
      });
      await expectOAuthError(
        await post(url, { 'content-type': JSON_TYPE }, big),
        400,
        'invalid_client_metadata',
      );
      await expectOAuthError(
        await post(url, { 'content-type': JSON_TYPE }, '{"redirect_uris": ['),
        400,
        'invalid_client_metadata',
      );
      const unreadable: Array<Record<string, string>> = [
        { 'content-type': `${JSON_TYPE}; charset=utf-16` },
        { 'content-type': JSON_TYPE, 'content-encoding': 'x-unknown' },
      ];
      for (const headers of unreadable) {
        const res = await post(url, headers, '{}');
        const text = await res.clone().text();
        await expectOAuthError(res, 400, 'invalid_client_metadata');
        // the description says what is wrong, not "not valid JSON"
        expect(text).to.match(/charset|encoding/);
      }
      for (const type of ['text/plain', FORM]) {
        await expectOAuthError(
          await post(url, { 'content-type': type }, '{}'),
          400,
          'invalid_request',
        );
      }
    });

    it("answers the token endpoint's unreadable bodies as OAuth errors too (RFC 6749 §5.2)", async () => {
      const url = `${base}/oauth/token`;
      for (const [headers, body] of [
        [{ 'content-type': FORM }, `grant_type=refresh_token&refresh_token=${'x'.repeat(70_000)}`],
        [{ 'content-type': JSON_TYPE }, '{"grant_type":"refresh_token"}'],
      ] as const) {
        await expectOAuthError(await post(url, headers, body), 400, 'invalid_request');
      }
    });
  });
}
