/**
 * What every notes operation shares: the service's registry types, its dependencies, and the
 * small steps each write repeats (command context from the request, If-Match to revision).
 */
import type { CommandContext } from '../../commands/handler.js';
import {
  assertIfMatch,
  type CursorCodec,
  expectedRevisionFrom,
  operationsFor,
} from '../../http/registry.js';
import type { NotesActions } from '../actions/index.js';
import type { NotesQueries } from '../queries.js';
import type { Presenter } from './present.js';

/** The caller: the account that signed in to issue the token, and the client it went to. */
export interface NotesPrincipal {
  userId: string;
  clientId: string;
  scopes: string[];
}

export interface NotesTypes {
  principal: NotesPrincipal;
  meta: Record<string, never>;
  access: undefined;
}

export const defineNotesOp = operationsFor<NotesTypes>();

export interface NoteHit {
  noteId: string;
  score: number;
}

/** The notes side of search (src/notes/search): the caller's active notes by meaning. */
export interface NotesSearchPort {
  search(userId: string, query: string, limit: number): Promise<NoteHit[]>;
}

export interface NotesHttpDeps {
  actions: NotesActions;
  queries: NotesQueries;
  presenter: Presenter;
  search: NotesSearchPort;
  /** signs page tokens (createCursorCodec(ctx.secret)) */
  cursors: CursorCodec;
  /** read-your-writes: resolves once the read models include `position` */
  waitFor(position: bigint): Promise<void>;
  clock(): number;
}

interface RequestFacts {
  principal: NotesPrincipal;
  correlationId: string;
  idempotencyKey: string | undefined;
}

export function commandContext(deps: NotesHttpDeps, ctx: RequestFacts): CommandContext {
  return {
    actor: ctx.principal.userId,
    via: `oauth:${ctx.principal.clientId}`,
    now: deps.clock(),
    correlationId: ctx.correlationId,
    ...(ctx.idempotencyKey ? { idempotencyKey: ctx.idempotencyKey } : {}),
  };
}

/**
 * The expected revision an If-Match asks for. A single strong integer tag (what our ETags are)
 * goes to the command as its expected revision, so the check and the append are one atomic
 * step; `*` or a list is checked against the current revision (412 when none matches), then
 * that revision is expected, so a writer slipping in between still loses.
 */
export async function expectedRevision(
  ifMatch: string | undefined,
  current: () => Promise<number | undefined>,
  what: string,
): Promise<number | undefined> {
  if (ifMatch === undefined) return undefined;
  const exact = expectedRevisionFrom(ifMatch);
  if (exact !== undefined) return exact;
  const revision = await current();
  assertIfMatch(ifMatch, revision, what);
  return revision;
}

/** Wait for the projections when a write appended something (the response then shows it). */
export async function settle(deps: NotesHttpDeps, position: bigint | null): Promise<void> {
  if (position !== null) await deps.waitFor(position);
}
