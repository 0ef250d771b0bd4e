/**
 * The whole authorization-code flow as the tests drive it: PKCE authorization request, sign-in
 * and consent through the real pages over HTTP (code read from the dev mailbox), code exchange.
 */
import { authorizeOverHttp } from './browserless.js';
import { exchange, type oidc, registerClient, startAuthorization } from './client.js';
import { tokenRequest } from './refusals.js';

/** A client's authorization through the real pages, up to the redirect back with its code. */
export async function authorizedCode(
  server: { base: string; mailboxPath: string },
  config: oidc.Configuration,
  opts: { scope: string; email: string },
) {
  const pending = await startAuthorization(config, server.base, opts.scope);
  const callback = await authorizeOverHttp({
    authUrl: pending.url,
    base: server.base,
    email: opts.email,
    mailboxPath: server.mailboxPath,
  });
  return { pending, callback };
}

export async function signInAndExchange(
  server: { base: string; mailboxPath: string },
  config: oidc.Configuration,
  opts: { scope: string; email: string },
) {
  const { pending, callback } = await authorizedCode(server, config, opts);
  return { pending, callback, tokens: await exchange(config, callback, pending) };
}

/**
 * A new client's authorization up to the redirect back with a code, and the code's exchange as a
 * client sends it, answered as it comes (a refusal is an answer, not a throw).
 */
export async function codeToExchange(
  server: { base: string; mailboxPath: string },
  opts: { scope: string; email: string; algorithm?: 'oidc' | 'oauth2' },
) {
  const config = await registerClient(server.base, { algorithm: opts.algorithm });
  const { pending, callback } = await authorizedCode(server, config, opts);
  const exchange = () =>
    tokenRequest(server.base, {
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code') as string,
      code_verifier: pending.verifier,
      redirect_uri: `${server.base}/cb`,
      client_id: config.clientMetadata().client_id,
    });
  return { config, pending, callback, exchange };
}
