/**
 * The types every feedback operation shares: who calls (Caller), what an operation declares for
 * the authorization policy (FeedbackMeta), what authorize hands to handlers (FeedbackAccess),
 * and the dependencies operation factories receive (FeedbackHttpDeps).
 */
import type { CommandContext, CommandHandler } from '../../write/command-handler.js';
import type { Config } from '../../config/schema.js';
import type { CursorCodec, Operation } from '../../http/registry.js';
import { operationsFor } from '../../http/registry.js';
import type { Logger } from '../../platform/logger.js';
import type { ReadStore } from '../../readstore/types.js';

export type CredentialKind = 'pat' | 'oauth' | 'id-token' | 'integration';

/** The authenticated caller. A token identifies a user only; memberships are read live. */
export interface Caller {
  userId: string;
  credential: CredentialKind;
  /** attribution label: `pat:<token name>`, `api:<client name>`, `integration:<connection name>`; absent for ID tokens */
  via?: string;
  /**
   * the credential's own id, which the label's name may not tell apart: the personal API token's
   * id, the OAuth client id, the integration credential's id; absent for ID tokens
   */
  credentialId?: string;
  /** OAuth scopes (empty = full maker surface); personal tokens and ID tokens have none */
  scopes: readonly string[];
  /** OAuth client name, for replies recorded as `agent` */
  clientName?: string;
  /** OAuth client id (credential `oauth` only) */
  clientId?: string;
  /** the workspace and connection name of a workspace integration credential (`rfi_…`) */
  integration?: { workspaceId: string; name: string };
}

export interface FeedbackMeta {
  /** route is under /workspaces/{slug}: membership is re-read live (non-member = 404) */
  workspace?: boolean;
  /** requires the workspace `admin` role (403 otherwise) */
  admin?: boolean;
  /** callable with a `service.public`-scoped token (submit_feedback, get_public_roadmap) */
  publicScope?: boolean;
  /**
   * mints or manages credentials (personal API tokens and connected apps under /v1/me, workspace
   * integration credentials): only the maker's own credentials reach it, never an OAuth access
   * token or an integration credential (403) — a credential an app minted would outlive it
   */
  ownCredentials?: boolean;
}

/** Handed to handlers of workspace routes by authorize: the live membership it checked. */
export interface FeedbackAccess {
  workspaceId: string;
  slug: string;
  role: 'admin' | 'member';
}

export type FeedbackTypes = {
  principal: Caller;
  meta: FeedbackMeta;
  access: FeedbackAccess | undefined;
};

export const defineFeedbackOp = operationsFor<FeedbackTypes>();
export type FeedbackOperation = Operation<FeedbackTypes>;

export interface FeedbackHttpDeps {
  config: Config;
  commandHandler: CommandHandler;
  readStore: ReadStore;
  /** signs list cursors; a tampered cursor is a 400 */
  cursors: CursorCodec;
  /** milliseconds since the epoch; tests pass a fixed clock */
  now(): number;
  logger: Logger;
}

/** The command context for a write by this caller (actor, attribution, time, idempotency). */
export function commandContext(
  deps: Pick<FeedbackHttpDeps, 'now'>,
  caller: Caller,
  facts: {
    correlationId?: string;
    clientCorrelationId?: string;
    idempotencyKey?: string;
    unmetPrecondition?: Error;
  },
): CommandContext {
  return {
    actor: caller.userId,
    via: caller.via,
    ...(caller.credentialId ? { credentialId: caller.credentialId } : {}),
    now: deps.now(),
    correlationId: facts.correlationId,
    ...(facts.clientCorrelationId ? { clientCorrelationId: facts.clientCorrelationId } : {}),
    idempotencyKey: facts.idempotencyKey,
    ...(facts.unmetPrecondition ? { unmetPrecondition: facts.unmetPrecondition } : {}),
  };
}
