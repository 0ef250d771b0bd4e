/**
 * The types every notes operation shares: who calls (NotesPrincipal), the registry's types for
 * the service (NotesTypes, defineNotesOp), the dependencies operation factories receive
 * (NotesHttpDeps), and the command context of a write.
 */
import type { CursorCodec, Operation } from '../../http/registry.js';
import { operationsFor } from '../../http/registry.js';
import type { CommandContext } from '../../write/command-handler.js';
import type { NotesDeps } from '../actions/index.js';
import type { NotesQueries } from '../queries.js';
import type { NotesSearchPort } from '../search/notes-search.js';
import type { Presenter } from './present.js';

/** The caller: the account that signed in to issue the token, and the client it went to. */
export interface NotesPrincipal {
  userId: string;
  clientId: string;
  scopes: string[];
}

export interface NotesMeta {
  /**
   * false: the operation is not a tool of the hosted MCP server (spec: "Only `GET /v1/devices`
   * is exposed by the hosted MCP server; the write operations exist over the API and on the
   * local MCP server"). The API and the local MCP server offer every operation.
   */
  hostedMcp?: false;
}

export interface NotesTypes {
  principal: NotesPrincipal;
  meta: NotesMeta;
  access: undefined;
}

export const defineNotesOp = operationsFor<NotesTypes>();
export type NotesOperation = Operation<NotesTypes>;

export interface NotesHttpDeps extends NotesDeps {
  queries: NotesQueries;
  presenter: Presenter;
  search: NotesSearchPort;
  /** signs page tokens (createCursorCodec(ctx.secret)) */
  cursors: CursorCodec;
  /** milliseconds since the epoch */
  now(): number;
}

/** The command context for a write by this caller (actor, attribution, time, idempotency). */
export function commandContext(
  deps: Pick<NotesHttpDeps, 'now'>,
  caller: NotesPrincipal,
  facts: {
    correlationId: string;
    clientCorrelationId?: string;
    idempotencyKey: string | undefined;
    unmetPrecondition?: Error;
  },
): CommandContext {
  return {
    actor: caller.userId,
    via: `oauth:${caller.clientId}`,
    now: deps.now(),
    correlationId: facts.correlationId,
    ...(facts.clientCorrelationId ? { clientCorrelationId: facts.clientCorrelationId } : {}),
    ...(facts.idempotencyKey ? { idempotencyKey: facts.idempotencyKey } : {}),
    ...(facts.unmetPrecondition ? { unmetPrecondition: facts.unmetPrecondition } : {}),
  };
}
