/**
 * The auth server's options for the feedback service, from configuration: the preset figures
 * (src/auth/presets.ts: access token 1 h, refresh token 90 days sliding, rotated on every use;
 * registration 20 per IP per 10 min), mail (SMTP_URL or the dev mailbox in DATA_DIR), an optional
 * upstream identity provider, and the service's own first-party client whose ID tokens are
 * bearer credentials out of the box.
 */
import { join, resolve } from 'node:path';
import {
  type AccountsPort,
  type AuthLogger,
  type AuthorizationServerOptions,
  feedbackAuthPreset,
} from '../../auth/index.js';
import { signInLimitsFrom, smtpFrom, upstreamFrom } from '../../auth/from-config.js';
import type { Config } from '../../config/schema.js';
import { MCP_PATH } from '../../mcp/http.js';
import type { ReadStore } from '../../readstore/types.js';

/** The board's own web app: a static public client; its ID tokens work as bearer tokens. */
export const FIRST_PARTY_CLIENT_ID = 'feedback-board-web';
export const FIRST_PARTY_CALLBACK_PATH = '/auth/callback';
export const DEV_MAILBOX_FILE = 'feedback-mailbox.jsonl';

/** the read-store collections of the feedback board's authorization server */
export const FEEDBACK_OAUTH_PREFIX = 'feedback_oauth';
/** the daily count of codes per address the OAuth sign-in and the board's identity page share */
export const FEEDBACK_SIGN_IN_SERVICE = 'feedback';
/** what the feedback service calls itself to people: its sign-in pages and the mails it sends */
export const FEEDBACK_SERVICE_NAME = 'Feedback board';
export function devMailboxPath(config: Config): string {
  return join(resolve(config.DATA_DIR), DEV_MAILBOX_FILE);
}

export function feedbackAuthOptions(input: {
  config: Config;
  baseUrl: string;
  readStore: ReadStore;
  accounts: AccountsPort;
  now: () => number;
  logger: AuthLogger;
}): AuthorizationServerOptions {
  const { config, baseUrl } = input;
  const smtp = smtpFrom(config);
  const upstream = upstreamFrom(config);
  return {
    ...feedbackAuthPreset,
    issuer: baseUrl,
    // the hosted MCP server is a resource of its own (RFC 8707): tokens can be issued for it
    resourcePaths: [MCP_PATH],
    readStore: input.readStore,
    accounts: input.accounts,
    collectionPrefix: FEEDBACK_OAUTH_PREFIX,
    signInService: FEEDBACK_SIGN_IN_SERVICE,
    serviceName: FEEDBACK_SERVICE_NAME,
    trustProxy: config.TRUST_PROXY,
    // the dev mailbox only in explicit development mode (src/config/mail-mode.ts)
    ...(smtp ? { smtp } : config.DEV_MODE ? { devMailboxPath: devMailboxPath(config) } : {}),
    registrationLimit: {
      max: config.FEEDBACK_REGISTRATIONS_PER_IP,
      windowSeconds: config.FEEDBACK_REGISTRATION_WINDOW_MINUTES * 60,
    },
    unusedClientTtlSeconds: config.OAUTH_UNUSED_CLIENT_HOURS * 60 * 60,
    authorizationLimit: {
      max: config.AUTHORIZATION_REQUESTS_PER_IP,
      windowSeconds: config.AUTHORIZATION_WINDOW_MINUTES * 60,
    },
    signInLimits: signInLimitsFrom(config),
    ...(upstream ? { upstream } : {}),
    firstPartyClients: [
      {
        client_id: FIRST_PARTY_CLIENT_ID,
        client_name: 'Feedback board',
        redirect_uris: [`${baseUrl.replace(/\/+$/, '')}${FIRST_PARTY_CALLBACK_PATH}`],
      },
    ],
    now: input.now,
    logger: input.logger,
  };
}
