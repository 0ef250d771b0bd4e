/**
 * Resource-growth audit: "a client_uri of 55,000 characters is accepted (201)" and kept for good.
 * What one open registration may store is bounded (src/auth/registration-bounds.ts), refused with
 * RFC 7591 §3.2.2's errors naming the field, before anything is stored.
 */
import { expect } from 'chai';
import { feedbackAuthPreset, notesAuthPreset } from '../../src/auth/index.js';
import { type Harness, startHarness } from './support/harness.js';

const register = (h: Harness, metadata: Record<string, unknown>) =>
  fetch(`${h.base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      token_endpoint_auth_method: 'none',
      redirect_uris: [`${h.base}/cb`],
      ...metadata,
    }),
  });

const https = (length: number) => `https://app.example/${'a'.repeat(length - 20)}`;

async function expectAccepted(res: Response) {
  expect(res.status, await res.text()).to.equal(201);
}

async function expectRefused(res: Response, error: string, naming: string) {
  const body = (await res.json()) as Record<string, string>;
  expect(res.status, JSON.stringify(body)).to.equal(400);
  expect(body.error).to.equal(error);
  expect(body.error_description).to.include(naming);
}

for (const [service, preset] of [
  ['feedback', feedbackAuthPreset],
  ['notes', notesAuthPreset],
] as const) {
  describe(`When a client registers with the ${service} service with oversized metadata`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness({ ...preset });
    });
    after(() => h.close());

    const storedClients = () => h.readStore().collection('oauth_Client').countDocuments({});

    it('refuses a client_uri of 55,000 characters and stores nothing', async () => {
      const res = await register(h, { client_name: 'Big', client_uri: https(55_000) });
      await expectRefused(res, 'invalid_client_metadata', 'too large: at most 16,384 bytes');
      expect(await storedClients()).to.equal(0);
    });

    it('refuses a URI field longer than 2,048 characters, naming the field', async () => {
      for (const field of ['client_uri', 'logo_uri', 'policy_uri', 'tos_uri', 'jwks_uri']) {
        const res = await register(h, { [field]: https(2049) });
        await expectRefused(res, 'invalid_client_metadata', `${field} is longer than 2048`);
      }
      expect(await storedClients()).to.equal(0);
      await expectAccepted(await register(h, { client_uri: https(2048) }));
    });

    it('refuses a client_name longer than 200 characters', async () => {
      const res = await register(h, { client_name: 'n'.repeat(201) });
      await expectRefused(res, 'invalid_client_metadata', 'client_name is longer than 200');
      const tagged = await register(h, { 'client_name#fr': 'n'.repeat(201) });
      await expectRefused(tagged, 'invalid_client_metadata', 'client_name#fr is longer than 200');
      await expectAccepted(await register(h, { client_name: 'n'.repeat(200) }));
      // characters, as README counts them: an emoji is one, though two UTF-16 units
      await expectAccepted(await register(h, { client_name: '\u{1F600}'.repeat(200) }));
    });

    it('refuses more than 10 redirect URIs, or a longer one, with invalid_redirect_uri', async () => {
      const many = Array.from({ length: 11 }, (_, i) => `${h.base}/cb${i}`);
      await expectRefused(
        await register(h, { redirect_uris: many }),
        'invalid_redirect_uri',
        'redirect_uris has more than 10 entries',
      );
      await expectRefused(
        await register(h, { redirect_uris: [`${h.base}/cb`, https(2049)] }),
        'invalid_redirect_uri',
        'redirect_uris[1] is longer than 2048',
      );
      await expectAccepted(await register(h, { redirect_uris: many.slice(0, 10) }));
      // README: "each entry of a list at most 2,048 characters": 2,048 is within the bound
      await expectAccepted(await register(h, { redirect_uris: [`${h.base}/cb`, https(2048)] }));
    });

    it('refuses more than 10 contacts, or a longer one', async () => {
      const contacts = Array.from({ length: 11 }, (_, i) => `c${i}@example.com`);
      const before = await storedClients();
      await expectRefused(
        await register(h, { contacts }),
        'invalid_client_metadata',
        'contacts has more than 10 entries',
      );
      // README: "each entry of a list at most 2,048 characters", the first one as well
      await expectRefused(
        await register(h, { contacts: [`${'c'.repeat(2049)}@example.com`] }),
        'invalid_client_metadata',
        'contacts[0] is longer than 2048',
      );
      expect(await storedClients()).to.equal(before);
      await expectAccepted(await register(h, { contacts: contacts.slice(0, 10) }));
    });
  });
}
