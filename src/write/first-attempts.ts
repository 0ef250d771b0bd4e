/**
 * Retries answered as their first attempt (an Idempotency-Key seen before): the state that
 * attempt left, and — for a first attempt that changed nothing, whose key no event carries — the
 * key kept in `quietKeys` before it is answered (quiet-keys.ts). The command handler's part of
 * idempotency beside deciding (batch.ts).
 */
import type { Decider, DomainEvent } from '../../commands/shared/decider.js';
import type { EventStore } from '../eventstore/types.js';
import { type DecidedBatch, type Queued, type QuietOutcome, scopedKey } from './batch.js';
import type { QuietKeys } from './quiet-keys.js';

export function firstAttempts(events: EventStore, quietKeys: QuietKeys | undefined) {
  return {
    /** The kept first attempts, that changed nothing, of the batch's keyed commands. */
    async quietOf(
      streamId: string,
      batch: readonly Queued<unknown>[],
    ): Promise<ReadonlyMap<string, QuietOutcome> | undefined> {
      const keys = batch.flatMap(({ context }) =>
        context.idempotencyKey ? [scopedKey(context.actor, context.idempotencyKey)] : [],
      );
      if (keys.length === 0 || !quietKeys) return undefined;
      return quietKeys.find(streamId, keys);
    },

    /** Whether a first attempt with this scoped key changed nothing and was kept. */
    async keptQuiet(streamId: string, key: string): Promise<boolean> {
      return (await quietKeys?.find(streamId, [key]))?.has(key) === true;
    },

    /**
     * Keeps the keys of the batch's first attempts that changed nothing, before they are
     * answered; when the store refuses, those commands are refused with its error (the others
     * stand).
     */
    async keepQuiet(
      streamId: string,
      batch: readonly Queued<unknown>[],
      decided: DecidedBatch<unknown>,
    ): Promise<void> {
      const entries = decided.outcomes.flatMap((outcome, i) =>
        outcome.kind === 'decided' && outcome.quietKey
          ? [{ key: outcome.quietKey, hash: batch[i]!.commandHash, revision: outcome.revision, i }]
          : [],
      );
      if (entries.length === 0 || !quietKeys) return;
      try {
        await quietKeys.record(streamId, entries);
      } catch (error) {
        for (const { i } of entries) decided.outcomes[i] = { kind: 'refused', error };
      }
    },

    /**
     * A retry answered from its first attempt gets the state that attempt left — at its last
     * event's revision, or the revision it answered at when it changed nothing — not the
     * stream's current state: "a retry with the same Idempotency-Key returns the first result",
     * also once later writes have followed. Read only for such retries.
     */
    async asFirstLeft<State>(
      streamId: string,
      decider: Decider<State, unknown, DomainEvent>,
      decided: DecidedBatch<State>,
    ): Promise<void> {
      for (const outcome of decided.outcomes) {
        if (outcome.kind !== 'decided') continue;
        const left = outcome.stored ? outcome.stored.at(-1)!.revision : outcome.answeredAt;
        if (left === undefined || left === outcome.revision) continue;
        const upTo = left < 0 ? [] : await events.readStream(streamId, { maxCount: left + 1 });
        outcome.state = upTo.reduce(
          (state, event) => decider.evolve(state, event as unknown as DomainEvent),
          decider.initialState(),
        );
        outcome.revision = left;
      }
    },
  };
}
