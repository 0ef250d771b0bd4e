/**
 * An MCP client's OAuth side as the SDK drives it (OAuthClientProvider): it keeps what the SDK
 * hands it in memory and, when the SDK sends the user to the authorization URL, records it so
 * the test signs in through the service's pages (test/auth/support/browserless.ts).
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';

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
