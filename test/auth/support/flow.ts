/**
 * The whole authorization-code flow as the tests drive it: PKCE authorization request, sign-in
 * and consent through the real pages over HTTP (code read from the dev mailbox), code exchange.
 */
import { authorizeOverHttp } from './browserless.js';
import { exchange, type oidc, startAuthorization } from './client.js';

export async function signInAndExchange(
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
  return { pending, callback, tokens: await exchange(config, callback, pending) };
}
