/**
 * Shared vocabulary of the feedback actions (application services). An action is what one
 * operation does to the write side: it validates what needs a lookup, runs one or more commands
 * through the command handler and returns what the operation answers plus the global `position`
 * the caller waits for (read-your-writes). `position` is null when nothing was appended.
 */
import { createHash, randomUUID } from 'node:crypto';
import { productKeyOf } from '../../../commands/product/index.js';
import { NotFound } from '../../../commands/shared/errors.js';
import type { CommandContext, CommandHandler } from '../../write/command-handler.js';
import type { ReadStore } from '../../readstore/types.js';

export type { CommandContext, CommandHandler };

export interface CommandDeps {
  commandHandler: CommandHandler;
}
export interface FeedbackDeps extends CommandDeps {
  readStore: ReadStore;
}

export function latest(...positions: (bigint | null | undefined)[]): bigint | null {
  let max: bigint | null = null;
  for (const p of positions) if (p != null && (max === null || p > max)) max = p;
  return max;
}

/**
 * A fresh id, or — when the client sent an Idempotency-Key — one derived from it, so a retried
 * command is identical to the first and the handler returns the first result.
 */
export function idFor(prefix: string, context: CommandContext, scope: string): string {
  if (!context.idempotencyKey) return `${prefix}${randomUUID().replaceAll('-', '')}`;
  const digest = createHash('sha256')
    .update(`${scope}\0${context.idempotencyKey}`)
    .digest('base64url');
  return `${prefix}${digest.slice(0, 24).replaceAll('-', 'x').replaceAll('_', 'y')}`;
}

/** An item addressed under a product path must belong to that product (else it is not there). */
export function assertItemOfProduct(productKey: string, itemKey: string): void {
  if (productKeyOf(itemKey) !== productKey) throw new NotFound('item not found');
}

/** The context for a follow-on command of the same operation. */
export function withoutKey(context: CommandContext): CommandContext {
  const { idempotencyKey: _key, ...rest } = context;
  return rest;
}
