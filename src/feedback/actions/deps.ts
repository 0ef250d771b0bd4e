/**
 * Shared vocabulary of the feedback actions (application services). An action is what one
 * operation does to the write side: it validates what needs a lookup, runs one or more commands
 * through the command handler and returns what the operation answers plus the global `position`
 * the caller waits for (read-your-writes). `position` is null when nothing was appended.
 */
import { createHash, randomUUID } from 'node:crypto';
import { productKeyOf } from '../../../commands/product/index.js';
import { Conflict, NotFound } from '../../../commands/shared/errors.js';
import { keyedBy } from '../../write/batch.js';
import type { CommandContext, CommandHandler } from '../../write/command-handler.js';
import type { ReadStore } from '../../readstore/types.js';

export type { CommandContext, CommandHandler };
export { keyedBy };

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
 * A fresh id, or — when the client sent an Idempotency-Key — one derived from it and the actor,
 * so a retried command is identical to the first and the handler returns the first result. The
 * actor is part of it because a key belongs to whoever sent it (write/batch.ts `scopedKey`):
 * two members' replies under one key are two replies, not one id twice.
 */
export function idFor(prefix: string, context: CommandContext, scope: string): string {
  if (!context.idempotencyKey) return `${prefix}${randomUUID().replaceAll('-', '')}`;
  const digest = keyDigest(`${scope}\0${context.actor ?? ''}`, context.idempotencyKey).toString(
    'base64url',
  );
  return `${prefix}${digest.slice(0, 24).replaceAll('-', 'x').replaceAll('_', 'y')}`;
}

/** What both id derivations hash: the scope and the client's Idempotency-Key. */
function keyDigest(scope: string, key: string): Buffer {
  return createHash('sha256').update(`${scope}\0${key}`).digest();
}

/**
 * 32 hex digits, random — or, when the client sent an Idempotency-Key, derived from it and
 * `scope`, so a retry addresses the same new stream and the handler finds the first attempt.
 */
export function hexIdFor(context: Pick<CommandContext, 'idempotencyKey'>, scope: string): string {
  if (!context.idempotencyKey) return randomUUID().replaceAll('-', '');
  return keyDigest(scope, context.idempotencyKey).toString('hex').slice(0, 32);
}

/**
 * A credential's value is shown once and kept only as a hash, so a retry with the same
 * Idempotency-Key cannot repeat the first answer; it is refused (409) rather than minting a
 * second credential the client would not know it holds.
 */
export function refuseCredentialReplay(result: { replayed: boolean }, what: string): void {
  if (result.replayed) {
    throw new Conflict(
      `this Idempotency-Key already created ${what}; its value is shown only once: revoke it and create another`,
    );
  }
}

/** An item addressed under a product path must belong to that product (else it is not there). */
export function assertItemOfProduct(productKey: string, itemKey: string): void {
  if (productKeyOf(itemKey) !== productKey) throw itemNotFound(productKey, itemKey);
}

/**
 * The 404 of an item address. A key of another product says so — from the two keys the caller
 * sent alone, so it tells nothing about what exists — since "not found" alone sends a caller (an
 * assistant above all) looking for an item that is there, under its own product.
 */
export function itemNotFound(productKey: string, itemKey: string): NotFound {
  const owner = productKeyOf(itemKey);
  if (owner === productKey) return new NotFound('item not found');
  return new NotFound(`item ${itemKey} not found in ${productKey}: its key is one of ${owner}'s`);
}

/** The context for a follow-on command of the same operation. */
export function withoutKey(context: CommandContext): CommandContext {
  const { idempotencyKey: _key, ...rest } = context;
  return rest;
}
