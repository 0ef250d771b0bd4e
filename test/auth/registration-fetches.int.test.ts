/**
 * Registration is open (spec: "no initial access token; open"), so nothing a stranger puts in a
 * registration may make the server connect somewhere: oidc-provider fetches a client's
 * `sector_identifier_uri` while registering it, which let anyone have the server open connections
 * to addresses of their choosing, inside its network too (SSRF). These servers issue public
 * subject identifiers only (discovery: subject_types_supported ["public"]), so the field has no use.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { feedbackAuthPreset, notesAuthPreset } from '../../src/auth/index.js';
import type { StoredArtifact } from '../../src/auth/storage/adapter.js';
import { authorizeOverHttp } from './support/browserless.js';
import { exchange, oidc, registerClient, startAuthorization } from './support/client.js';
import { type Harness, startHarness } from './support/harness.js';

/** stands in for a host inside the service's network: counts the connections it is offered */
async function listenInside(): Promise<{ server: net.Server; port: number; count(): number }> {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, count: () => connections };
}

for (const [name, preset, algorithm] of [
  ['feedback', feedbackAuthPreset, 'oidc'],
  ['notes', notesAuthPreset, 'oauth2'],
] as const) {
  describe(`When a ${name} client registers with a sector_identifier_uri`, () => {
    let h: Harness;
    let inside: net.Server;
    let connections = 0;
    before(async () => {
      h = await startHarness({ ...preset });
      // stands in for a host inside the service's network
      inside = net.createServer((socket) => {
        connections++;
        socket.destroy();
      });
      await new Promise<void>((resolve) => inside.listen(0, '127.0.0.1', resolve));
    });
    after(async () => {
      await h.close();
      await new Promise((resolve) => inside.close(resolve));
    });

    it('refuses it with invalid_client_metadata and connects nowhere (openid-client)', async () => {
      const { port } = inside.address() as AddressInfo;
      const refusal = await oidc
        .dynamicClientRegistration(
          new URL(h.base),
          {
            redirect_uris: [`${h.base}/cb`],
            token_endpoint_auth_method: 'none',
            sector_identifier_uri: `https://127.0.0.1:${port}/internal`,
          },
          oidc.None(),
          { execute: [oidc.allowInsecureRequests], algorithm },
        )
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(refusal).to.be.instanceOf(oidc.ResponseBodyError);
      expect((refusal as oidc.ResponseBodyError).error).to.equal('invalid_client_metadata');
      expect((refusal as oidc.ResponseBodyError).error_description).to.include(
        'sector_identifier_uri',
      );
      expect(connections, 'connections the registration opened').to.equal(0);
    });
  });
}

/**
 * Clients registered before the refusal above were stored with the `sector_identifier_uri` their
 * registrant chose, and oidc-provider fetches it every time it loads such a client (an
 * authorization request, a token request, after each restart): the outbound request went on, to
 * an address a stranger once picked. Loading a stored client never fetches it (provider.ts:
 * `sectorIdentifierUriValidate`); the field has no use with public subjects, and the client works.
 */
for (const [name, preset, algorithm, scope] of [
  ['feedback', feedbackAuthPreset, 'oidc', 'openid'],
  ['notes', notesAuthPreset, 'oauth2', 'notes'],
] as const) {
  describe(`When a ${name} client stored by an earlier version carries a sector_identifier_uri`, () => {
    let h: Harness;
    let inside: Awaited<ReturnType<typeof listenInside>>;
    let clientId: string;
    before(async () => {
      h = await startHarness({ ...preset });
      inside = await listenInside();
      // an earlier version stored the registration as oidc-provider gave it, with no expiry
      clientId = (await registerClient(h.base, { name: 'Old client', algorithm })).clientMetadata()
        .client_id;
      const clients = h.readStore().collection<StoredArtifact>('oauth_Client');
      const doc = (await clients.findOne({ _id: clientId })) as StoredArtifact;
      const payload = {
        ...JSON.parse(doc.payload),
        sector_identifier_uri: `https://127.0.0.1:${inside.port}/internal`,
      };
      await clients.replaceOne(
        { _id: clientId },
        { ...doc, payload: JSON.stringify(payload), expiresAt: null },
      );
      await h.readStore().flush();
      await h.restart();
    });
    after(async () => {
      await h.close();
      await new Promise((resolve) => inside.server.close(resolve));
    });

    it('loads it without connecting anywhere, and the client signs in and gets tokens (openid-client)', async () => {
      const config = await oidc.discovery(new URL(h.base), clientId, undefined, oidc.None(), {
        execute: [oidc.allowInsecureRequests],
        algorithm,
      });
      const signedIn = (async () => {
        const pending = await startAuthorization(config, h.base, scope);
        const callback = await authorizeOverHttp({
          authUrl: pending.url,
          base: h.base,
          email: 'old-client@example.com',
          mailboxPath: h.mailboxPath,
        });
        const tokens = await exchange(config, callback, pending);
        return (await h.auth.verifyAccessToken(tokens.access_token)).clientName;
      })().catch((error: unknown) => error);
      const outcome = await signedIn;
      expect(inside.count(), 'connections loading the stored client opened').to.equal(0);
      expect(outcome).to.equal('Old client');
    });
  });
}
