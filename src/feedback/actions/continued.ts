/**
 * The context a start-up recovery finishes an interrupted request under: that request's actor,
 * `via` and correlation id, read from the event its first step appended (the cause), with the
 * recovery's own time. The recovery only finishes what the request began (README: a merge or
 * unmerge "is two steps that converge after a crash"), so history, the audit trail and the
 * webhook messages name who asked for it rather than the system, and the correlation id links
 * both halves.
 */
import { randomUUID } from 'node:crypto';
import type { EventStore, RecordedEvent } from '../../eventstore/types.js';
import type { CommandContext } from './deps.js';

export type RecoveryDeps = { eventStore: EventStore };

/** `context` carrying the metadata of the latest event of `streamId` that `isCause` picks. */
export async function continuing(
  deps: RecoveryDeps,
  context: CommandContext,
  streamId: string,
  isCause: (event: RecordedEvent) => boolean,
): Promise<CommandContext> {
  const events = await deps.eventStore.readStream(streamId, { direction: 'backwards' });
  const cause = events.find(isCause);
  if (!cause) return context;
  const { actor, via, credentialId, correlationId, clientCorrelationId } = cause.metadata;
  return {
    now: context.now,
    actor,
    correlationId,
    causationId: cause.id,
    ...(via ? { via } : {}),
    ...(credentialId ? { credentialId } : {}),
    ...(clientCorrelationId ? { clientCorrelationId } : {}),
  };
}

/** Contexts that record as one request: same actor, label and correlation id. */
export const requestOf = (context: CommandContext): string =>
  JSON.stringify([context.actor, context.via ?? null, context.correlationId ?? null]);

/**
 * `context` with one correlation id for all the steps of a request that spans streams: without
 * one each append draws its own, and the recovery, which groups a request's steps by it
 * (`requestOf`), would record one merge of two items as two.
 */
export const asOneRequest = (context: CommandContext): CommandContext =>
  context.correlationId ? context : { ...context, correlationId: randomUUID() };
