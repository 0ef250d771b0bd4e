/**
 * Command handling: load the aggregate's stream, fold it, decide, append with the revision read.
 * A concurrent writer makes the append fail with WrongExpectedRevisionError; we reload and
 * decide again, a bounded number of times, then answer Conflict.
 *
 * Folded states are kept in a bounded cache as snapshots; every command still reads the
 * stream's tail after the cached revision, so another process appending (the CLI, a second API
 * process) is always seen, and optimistic concurrency catches whatever races remain.
 *
 * Idempotency: when the caller supplies an Idempotency-Key, its events carry the key and a hash
 * of the command. A retry that finds events with the same key on the stream returns them instead
 * of deciding again; the same key with a different command is a Conflict. Keys are scoped to
 * the aggregate's stream.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Decider, DomainEvent } from '../../commands/shared/decider.js';
import { Conflict } from '../../commands/shared/errors.js';
import type { EventMetadata, EventStore, NewEvent, RecordedEvent } from '../eventstore/types.js';
import { WrongExpectedRevisionError } from '../eventstore/types.js';
import { StateCache } from './state-cache.js';

/** Who issues the command and when; becomes the events' metadata. */
export interface CommandContext {
  actor: string | null;
  via?: string;
  now: number;
  correlationId?: string;
  causationId?: string | null;
  idempotencyKey?: string;
}

export interface CommandResult<State, Event extends DomainEvent> {
  /** the events this command appended (or, for an idempotent retry, appended the first time) */
  events: RecordedEvent<Event['type'], Event['data']>[];
  state: State;
  /** last revision of the stream after the command; -1 when the stream still does not exist */
  revision: number;
  /** global position to wait for before reading (null when nothing was appended) */
  position: bigint | null;
  /** true when an earlier attempt with the same Idempotency-Key was found and returned */
  replayed: boolean;
}

export interface CommandHandlerOptions {
  maxAttempts?: number;
  cacheSize?: number;
}

export type CommandHandler = ReturnType<typeof createCommandHandler>;

export function createCommandHandler(events: EventStore, options: CommandHandlerOptions = {}) {
  const maxAttempts = options.maxAttempts ?? 5;
  const cache = new StateCache(options.cacheSize ?? 50_000);

  async function load<State, Event extends DomainEvent>(
    streamId: string,
    decider: Decider<State, unknown, Event>,
  ) {
    const cached = cache.get<State>(streamId);
    let state = cached?.state ?? decider.initialState();
    let revision = cached?.revision ?? -1;
    const keyed = new Map(cached?.keyed ?? []);
    const tail = await events.readStream(streamId, { fromRevision: revision + 1 });
    for (const event of tail) {
      state = decider.evolve(state, event as unknown as Event);
      revision = event.revision;
      const key = event.metadata.idempotencyKey;
      if (key) keyed.set(key, [...(keyed.get(key) ?? []), event]);
    }
    if (tail.length > 0 || !cached) cache.set(streamId, { state, revision, keyed });
    return { state, revision, keyed };
  }

  return {
    async handle<State, Command, Event extends DomainEvent>(
      streamId: string,
      decider: Decider<State, Command, Event>,
      command: Command,
      context: CommandContext,
    ): Promise<CommandResult<State, Event>> {
      const commandHash = context.idempotencyKey ? hashCommand(command) : undefined;
      for (let attempt = 1; ; attempt++) {
        const { state, revision, keyed } = await load(
          streamId,
          decider as Decider<State, unknown, Event>,
        );
        if (context.idempotencyKey) {
          const earlier = keyed.get(context.idempotencyKey);
          if (earlier) {
            if (earlier[0]!.metadata.commandHash !== commandHash) {
              throw new Conflict('Idempotency-Key was already used for a different request');
            }
            return {
              events: earlier as CommandResult<State, Event>['events'],
              state,
              revision,
              position: earlier.at(-1)!.position,
              replayed: true,
            };
          }
        }
        const decided = decider.decide(command, state);
        if (decided.length === 0) {
          return { events: [], state, revision, position: null, replayed: false };
        }
        const metadata = toMetadata(context, commandHash);
        const toAppend: NewEvent[] = decided.map((e) => ({
          id: randomUUID(),
          type: e.type,
          data: e.data,
          metadata,
        }));
        try {
          const appended = await events.appendToStream(streamId, toAppend, {
            expectedRevision: revision === -1 ? 'no_stream' : revision,
          });
          const recorded = toAppend.map((e, i) => ({
            ...e,
            id: e.id!,
            streamId,
            revision: revision + 1 + i,
            // only the last position is known exactly; earlier ones are not used for waiting
            position: appended.position,
          })) as CommandResult<State, Event>['events'];
          const newState = decided.reduce(decider.evolve, state);
          const newKeyed = new Map(keyed);
          if (context.idempotencyKey) newKeyed.set(context.idempotencyKey, recorded);
          cache.set(streamId, {
            state: newState,
            revision: appended.nextExpectedRevision,
            keyed: newKeyed,
          });
          return {
            events: recorded,
            state: newState,
            revision: appended.nextExpectedRevision,
            position: appended.position,
            replayed: false,
          };
        } catch (error) {
          if (!(error instanceof WrongExpectedRevisionError)) throw error;
          cache.delete(streamId);
          if (attempt >= maxAttempts) {
            throw new Conflict(`too many concurrent changes to ${streamId}; try again`);
          }
        }
      }
    },

    /** Fold a stream without deciding (for commands that need another aggregate's state). */
    async load<State, Event extends DomainEvent>(
      streamId: string,
      decider: Decider<State, unknown, Event>,
    ): Promise<{ state: State; revision: number }> {
      const { state, revision } = await load(streamId, decider);
      return { state, revision };
    },
  };
}

function toMetadata(context: CommandContext, commandHash: string | undefined): EventMetadata {
  const metadata: EventMetadata = {
    actor: context.actor,
    occurredAt: context.now,
    correlationId: context.correlationId ?? randomUUID(),
    causationId: context.causationId ?? null,
  };
  if (context.via) metadata.via = context.via;
  if (context.idempotencyKey) {
    metadata.idempotencyKey = context.idempotencyKey;
    metadata.commandHash = commandHash;
  }
  return metadata;
}

function hashCommand(command: unknown): string {
  return createHash('sha256').update(stableJson(command)).digest('base64url');
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
