/** openid-client (a certified relying-party library) as the OAuth client in the tests. */
import * as oidc from 'openid-client';

export async function registerClient(
  base: string,
  opts: { name?: string; algorithm?: 'oidc' | 'oauth2'; redirectUri?: string; scope?: string } = {},
): Promise<oidc.Configuration> {
  return oidc.dynamicClientRegistration(
    new URL(base),
    {
      client_name: opts.name ?? 'Test Assistant',
      redirect_uris: [opts.redirectUri ?? `${base}/cb`],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(opts.scope ? { scope: opts.scope } : {}),
    },
    oidc.None(),
    { execute: [oidc.allowInsecureRequests], algorithm: opts.algorithm ?? 'oidc' },
  );
}

export async function startAuthorization(
  config: oidc.Configuration,
  base: string,
  scope: string,
  redirectUri = `${base}/cb`,
) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  return { url: url.href, verifier, state };
}

export function exchange(
  config: oidc.Configuration,
  callback: URL,
  pending: { verifier: string; state: string },
) {
  return oidc.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: pending.verifier,
    expectedState: pending.state,
  });
}

export { oidc };
