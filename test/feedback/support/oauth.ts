/**
 * Connecting an OAuth client to the running feedback service the way a real one does: dynamic
 * registration, authorization with PKCE (signing in through the e-mail code pages over HTTP, the
 * code read from the dev mailbox), code exchange — all with openid-client.
 */
import {
  authorizeOverHttp,
  CookieJar,
  formIn,
  latestCode,
  request,
} from '../../auth/support/browserless.js';
import {
  FIRST_PARTY_CALLBACK_PATH,
  FIRST_PARTY_CLIENT_ID,
} from '../../../src/feedback/auth/settings.js';
import { exchange, oidc, registerClient, startAuthorization } from '../../auth/support/client.js';
import type { FeedbackHarness } from './harness.js';

export interface ConnectedClient {
  config: oidc.Configuration;
  clientId: string;
  tokens: Awaited<ReturnType<typeof exchange>>;
  accessToken: string;
  refreshToken: string;
}

/** Register a client named `name`, sign in as `email`, consent to `scope`, exchange the code. */
export async function connectClient(
  fb: FeedbackHarness,
  opts: { email: string; scope?: string; name?: string; jar?: CookieJar },
): Promise<ConnectedClient> {
  const pending = await authorizeClient(fb, opts);
  const tokens = await exchange(pending.config, pending.callback, pending);
  if (!tokens.refresh_token) throw new Error('no refresh token issued');
  return {
    config: pending.config,
    clientId: pending.clientId,
    tokens,
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token,
  };
}

/** Up to the redirect back with a code, without exchanging it (restart tests split here). */
export async function authorizeClient(
  fb: FeedbackHarness,
  opts: { email: string; scope?: string; name?: string; jar?: CookieJar },
) {
  const base = fb.url;
  const config = await registerClient(base, { name: opts.name ?? 'Test Assistant' });
  const started = await startAuthorization(config, base, opts.scope ?? 'openid');
  const callback = await authorizeOverHttp({
    authUrl: started.url,
    base,
    email: opts.email,
    mailboxPath: fb.mailboxPath,
    jar: opts.jar ?? new CookieJar(),
  });
  return { config, clientId: config.clientMetadata().client_id, callback, ...started };
}

export { CookieJar, oidc };

/**
 * The board's own first-party client (a static public client redirecting to
 * {base}/auth/callback): sign in and exchange the code; returns its tokens, ID token included.
 */
export async function firstPartySignIn(fb: FeedbackHarness, email: string, scope = 'openid email') {
  const base = fb.url;
  const config = await oidc.discovery(
    new URL(base),
    FIRST_PARTY_CLIENT_ID,
    undefined,
    oidc.None(),
    {
      execute: [oidc.allowInsecureRequests],
    },
  );
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const redirectUri = `${base}${FIRST_PARTY_CALLBACK_PATH}`;
  const authUrl = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  const jar = new CookieJar();
  let res = await request(jar, authUrl.href);
  for (let step = 0; step < 20; step++) {
    const location = res.headers.get('location');
    if (location) {
      const next = new URL(location, base);
      if (next.pathname === FIRST_PARTY_CALLBACK_PATH) {
        return oidc.authorizationCodeGrant(config, next, {
          pkceCodeVerifier: verifier,
          expectedState: state,
        });
      }
      res = await request(jar, next.href);
      continue;
    }
    const html = await res.text();
    if (html.includes('/email"')) {
      const form = formIn(html, base, '/email');
      res = await request(jar, form.action, { ...form.fields, email });
    } else if (html.includes('/code"')) {
      const form = formIn(html, base, '/code');
      res = await request(jar, form.action, {
        ...form.fields,
        code: latestCode(fb.mailboxPath, email),
      });
    } else if (html.includes('/confirm"')) {
      const form = formIn(html, base, '/confirm');
      res = await request(jar, form.action, form.fields);
    } else {
      throw new Error(`unexpected page (${res.status}): ${html.slice(0, 300)}`);
    }
  }
  throw new Error('first-party sign-in did not finish');
}
