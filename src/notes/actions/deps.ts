/**
 * Shared vocabulary of the notes actions (application services). An action is what one operation
 * does to the write side: it checks what needs a lookup, runs its command through the command
 * handler and returns what the operation answers plus the global `position` the caller waits for
 * (read-your-writes). Shapes and bounds are the HTTP schemas' job; the rules are the deciders'.
 *
 * Ids are generated here, never in deciders. With an Idempotency-Key, an id that a retry must
 * reproduce (the new note's id) is derived from the key, so the retry lands on the same stream
 * and the command handler answers it from the first attempt.
 */
import { createHash, randomUUID } from 'node:crypto';
import { isEntityId } from '../../../commands/shared/user-scoped.js';
import { InvalidArgument, NotFound } from '../../../commands/shared/errors.js';
import type { ReadStore } from '../../readstore/types.js';
import type { CommandContext, CommandHandler } from '../../write/command-handler.js';
import type { Places } from '../places.js';

export type { CommandContext };
export { keyedBy } from '../../write/batch.js';

export interface NotesDeps {
  commandHandler: CommandHandler;
  /** the tags and devices read models answer "is this name taken" */
  readStore: ReadStore;
  /** the place name of a note's coordinates */
  places: Places;
  /** most active tags and devices one user may have (default: notesLimits) */
  limits?: NotesLimits;
}

export interface NotesLimits {
  /** NOTES_TAGS_PER_USER */
  tagsPerUser: number;
  /** NOTES_DEVICES_PER_USER */
  devicesPerUser: number;
}

/** The configuration's defaults, for actions run without a configuration (tests, the CLI). */
export const notesLimits: NotesLimits = { tagsPerUser: 1000, devicesPerUser: 1000 };

export interface ActionResult {
  /** the aggregate's stream revision after the action (a note's ETag) */
  revision: number;
  /** wait for projections to reach this before reading; null when nothing was appended */
  position: bigint | null;
  /** true when answered from an earlier attempt with the same Idempotency-Key */
  replayed: boolean;
}

/** A UUID-shaped id from stable parts (same parts, same id). */
export function derivedId(...parts: string[]): string {
  const hex = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * A fresh id, or — when the client sent an Idempotency-Key — one derived from it and `scope`, so a
 * retried command is identical to the first and the handler returns the first result.
 */
export function idFor(context: CommandContext, ...scope: string[]): string {
  return context.idempotencyKey ? derivedId(...scope, context.idempotencyKey) : randomUUID();
}

export function checkUser(userId: string): void {
  if (typeof userId !== 'string' || userId.length === 0) throw new InvalidArgument('no user');
}

/** Ids from clients become part of stream ids; anything that is not an id is simply not found. */
export function checkId(id: string, what: 'note' | 'tag' | 'device'): void {
  if (!isEntityId(id)) throw new NotFound(`${what} not found`);
}

export function latest(...positions: (bigint | null | undefined)[]): bigint | null {
  let max: bigint | null = null;
  for (const p of positions) if (p != null && (max === null || p > max)) max = p;
  return max;
}

/**
 * What a write names: its resource's revision as its If-Match asked for it, and that If-Match as
 * sent when it named no single revision (`*`, a list: src/notes/http/resource.ts precondition).
 */
export interface Precondition {
  expectedRevision?: number;
  ifMatch?: string;
}

/**
 * A write as a retry with the same Idempotency-Key is compared by (keyedBy): what the client
 * sent. A `*` or a list stands as sent, not as the revision it resolved to, which the first
 * attempt's own write moved.
 */
export function asSent<Request extends Precondition>(request: Request) {
  const { expectedRevision, ifMatch, ...rest } = request;
  return { ...rest, expectedRevision: ifMatch ?? expectedRevision };
}

/** The context without its Idempotency-Key: for what a request writes besides its own resource. */
export function unkeyed(context: CommandContext): CommandContext {
  const { idempotencyKey: _key, requestHash: _hash, ...rest } = context;
  return rest;
}

export { again, untilSettled } from '../../write/settle.js';
