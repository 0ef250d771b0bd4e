/**
 * What every notes action shares: its dependencies, id generation, and result plumbing.
 *
 * Ids are generated here, never in deciders. With an Idempotency-Key, an id that a retry must
 * reproduce (the new note's id) is derived from the key, so the retry lands on the same stream
 * and the command handler answers it from the first attempt.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { CommandContext, CommandHandler } from '../../commands/handler.js';
import { isEntityId } from '../../../commands/note/index.js';
import { InvalidArgument, NotFound } from '../../../commands/shared/errors.js';
import type { ReadStore } from '../../readstore/types.js';
import type { Places } from '../places.js';

export interface NotesActionDeps {
  commands: CommandHandler;
  readStore: ReadStore;
  places: Places;
  /** not read by the actions: time comes from CommandContext.now; accepted for shared deps */
  clock?: () => number;
}

export type { CommandContext };

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

/** Random id, or derived from the Idempotency-Key so a retry reproduces it. */
export function newId(context: CommandContext, ...parts: string[]): string {
  return context.idempotencyKey ? derivedId(...parts, context.idempotencyKey) : randomUUID();
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
  for (const p of positions)
    if (p !== null && p !== undefined && (max === null || p > max)) max = p;
  return max;
}
