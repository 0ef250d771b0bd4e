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
import { oidc } from './support/client.js';
import { type Harness, startHarness } from './support/harness.js';

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
