/**
 * A real upstream OpenID provider for tests: a second node-oidc-provider on 127.0.0.1 (its
 * development login and consent pages stand in for the user's account there), and a browser in
 * miniature that follows redirects across origins with one cookie jar per origin.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type Configuration } from 'oidc-provider';
import { CookieJar, request } from './browserless.js';

/** The upstream's users: `login` on its dev login page is the account id. */
export const UPSTREAM_USERS: Record<
  string,
  { email: string; email_verified?: boolean; name: string }
> = {
  ada: { email: 'Ada@Upstream.test', email_verified: true, name: 'Ada Lovelace' },
  eve: { email: 'eve@upstream.test', email_verified: false, name: 'Eve' },
  /** says nothing of verification: no `email_verified` claim at all */
  mal: { email: 'mal@upstream.test', name: 'Mal' },
};

export interface Upstream {
  base: string;
  provide(redirectUri: string): Promise<void>;
  close(): Promise<void>;
}

/** Listens first (the issuer URL needs the port), serves once `provide` knows our callback. */
export async function startUpstream(): Promise<Upstream> {
  let handler: http.RequestListener | undefined;
  const server = http.createServer((req, res) => {
    if (handler) handler(req, res);
    else res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    async provide(redirectUri) {
      const { privateKey } = await generateKeyPair('ES256', { extractable: true });
      const configuration: Configuration = {
        clients: [
          {
            client_id: 'feedback-board',
            client_secret: 'upstream-secret',
            redirect_uris: [redirectUri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
            id_token_signed_response_alg: 'ES256',
          },
        ],
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
        async findAccount(_ctx, sub) {
          const user = UPSTREAM_USERS[sub];
          if (!user) return undefined;
          return { accountId: sub, claims: async () => ({ sub, ...user }) };
        },
        cookies: { keys: ['upstream-test-key'] },
        jwks: { keys: [{ ...(await exportJWK(privateKey)), alg: 'ES256', use: 'sig' }] },
        ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
      };
      // Its in-memory storage and development pages are the point here; keep their warnings out.
      const { warn } = console;
      console.warn = () => {};
      try {
        handler = new Provider(base, configuration).callback();
      } finally {
        console.warn = warn;
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A browser in miniature: follows redirects across origins, one cookie jar per origin. */
export class Browser {
  private readonly jars = new Map<string, CookieJar>();
  async go(url: string, form?: Record<string, string>): Promise<Response> {
    const origin = new URL(url).origin;
    let jar = this.jars.get(origin);
    if (!jar) {
      jar = new CookieJar();
      this.jars.set(origin, jar);
    }
    return request(jar, url, form);
  }
  /**
   * follows redirects until a page, or until the redirect to the client's `/cb` (or to a URL
   * `stop` picks: `url` is then where the redirect points, not followed)
   */
  async follow(
    res: Response,
    from: string,
    stop: (url: URL) => boolean = () => false,
  ): Promise<{ res: Response; url: string }> {
    let current = res;
    let url = from;
    for (let hops = 0; hops < 12 && current.status >= 300 && current.status < 400; hops++) {
      url = new URL(current.headers.get('location') ?? '', url).href;
      if (new URL(url).pathname === '/cb' || stop(new URL(url))) return { res: current, url };
      current = await this.go(url);
    }
    return { res: current, url };
  }
}

/** the upstream dev pages' single form: its absolute action */
export function upstreamAction(html: string, pageUrl: string): string {
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`no form on the upstream page:\n${html}`);
  return new URL(action.replaceAll('&amp;', '&'), pageUrl).href;
}
