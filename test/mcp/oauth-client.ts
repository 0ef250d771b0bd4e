/**
 * An MCP client's OAuth side as the SDK drives it (OAuthClientProvider): it keeps what the SDK
 * hands it in memory and, when the SDK sends the user to the authorization URL, records it so
 * the test signs in through the service's pages (test/auth/support/browserless.ts).
 * `connectFromNothing` drives the whole flow from a first call without a token.
 */
import {
  type OAuthClientProvider,
  UnauthorizedError,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { expect } from 'chai';
import { authorizeOverHttp } from '../auth/support/browserless.js';

export class RecordingOAuthProvider implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  private client: OAuthClientInformationMixed | undefined;
  private saved: OAuthTokens | undefined;
  private verifier = '';

  constructor(
    private readonly base: string,
    private readonly name: string,
  ) {}

  get redirectUrl(): string {
    return `${this.base}/cb`;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** A fetch that records every request (method, URL, status, WWW-Authenticate) it makes. */
export function recordingFetch() {
  const log: {
    method: string;
    url: string;
    status: number;
    challenge: string | null;
    body?: string;
  }[] = [];
  const fetchFn: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    log.push({
      method: init?.method ?? 'GET',
      url: String(input instanceof Request ? input.url : input),
      status: res.status,
      challenge: res.headers.get('www-authenticate'),
      ...(typeof init?.body === 'string' || init?.body instanceof URLSearchParams
        ? { body: String(init.body) }
        : {}),
    });
    return res;
  };
  return { log, fetchFn };
}

/** Connect with no token, sign in when the SDK asks, finish, connect again; returns the client. */
export async function connectFromNothing(opts: {
  base: string;
  email: string;
  mailboxPath: string;
  clientName: string;
}) {
  const endpoint = new URL(`${opts.base}/mcp`);
  const provider = new RecordingOAuthProvider(opts.base, opts.clientName);
  const recorded = recordingFetch();
  const first = new StreamableHTTPClientTransport(endpoint, {
    authProvider: provider,
    fetch: recorded.fetchFn,
  });
  const refused = await new Client({ name: 'assistant', version: '1.0.0' }).connect(first).then(
    () => null,
    (e: unknown) => e,
  );
  expect(refused, 'the first connection needs the user').to.be.instanceOf(UnauthorizedError);
  expect(provider.authorizationUrl, 'the SDK sent the user to sign in').to.not.equal(undefined);
  const callback = await authorizeOverHttp({
    authUrl: provider.authorizationUrl!.href,
    base: opts.base,
    email: opts.email,
    mailboxPath: opts.mailboxPath,
  });
  const code = callback.searchParams.get('code');
  expect(code, callback.href).to.be.a('string');
  await first.finishAuth(code!);
  const transport = new StreamableHTTPClientTransport(endpoint, {
    authProvider: provider,
    fetch: recorded.fetchFn,
  });
  const client = new Client({ name: 'assistant', version: '1.0.0' });
  await client.connect(transport);
  return { client, provider, log: recorded.log };
}
