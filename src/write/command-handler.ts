/**
 * Command handling: load the aggregate's stream, fold it, decide, append with the revision read.
 *
 * Within this process, commands on one stream never race: each stream has a lane, and the
 * commands waiting in it are decided together, one after the other, and appended as one batch
 * (batch.ts) — a burst on one product or one popular item costs one append per batch instead of
 * a conflict per command. Optimistic concurrency then only meets writers in other processes (a
 * second API process, the CLI): on a conflict the batch is reloaded and decided again, after a
 * jittered backoff, until a deadline; past it the callers get Unavailable (503, Retry-After).
 *
 * Folded states are kept in a bounded cache as snapshots. A batch decides on its stream's cached
 * snapshot without reading the stream (on KurrentDB a round trip per write): the append's
 * expected revision catches another process's appends, and the retry reads the tail after the
 * cached revision. Once another process is seen writing the stream (a conflict, or a tail found
 * after the cached revision), every batch on it reads the tail first again, so two API processes
 * sharing a hot stream do not pay a failed append for most writes. `load` (another aggregate's
 * state, not appended to) always reads the tail.
 *
 * Idempotency: when the caller supplies an Idempotency-Key, its events carry the key and a hash
 * of the command. A retry that finds events with the same key on the stream returns them instead
 * of deciding again; the same key with a different command is a Conflict. Keys are scoped to
 * the aggregate's stream and to the actor who sent them (batch.ts `scopedKey`). A keyed command
 * that changed nothing has no events to carry its key: it is kept in `quietKeys`, and its retry
 * is answered as it was, never decided again.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Decider, DomainEvent } from '../../commands/shared/decider.js';
import { Unavailable } from '../../commands/shared/errors.js';
import type { EventStore, RecordedEvent } from '../eventstore/types.js';
import { WrongExpectedRevisionError } from '../eventstore/types.js';
import {
  type CommandContext,
  type DecidedBatch,
  decideBatch,
  hashCommand,
  type Queued,
  recordedOf,
  scopedKey,
} from './batch.js';
import { firstAttempts } from './first-attempts.js';
import type { QuietKeys } from './quiet-keys.js';
import { StateCache } from './state-cache.js';

export type { CommandContext };

export interface CommandResult<State, Event extends DomainEvent> {
  /** the events this command appended (or, for an idempotent retry, appended the first time) */
  events: RecordedEvent<Event['type'], Event['data']>[];
  /** the aggregate's state right after this command */
  state: State;
  /** last revision of the stream after this command; -1 when the stream still does not exist */
  revision: number;
  /** global position to wait for before reading (null when nothing was appended) */
  position: bigint | null;
  /** true when an earlier attempt with the same Idempotency-Key was found and returned */
  replayed: boolean;
}

export interface CommandHandlerOptions {
  cacheSize?: number;
  /** how long a batch keeps retrying against writers in other processes (default 5 s) */
  retryDeadlineMs?: number;
  /** most commands decided into one append (default 256) */
  maxBatch?: number;
  /** told of every durable append: its duration and how many events it held (metrics) */
  onAppend?: (seconds: number, events: number) => void;
  /** told of an append that failed for another reason than a concurrent writer (readiness) */
  onAppendFailed?: (error: unknown) => void;
  /** where the keys of keyed commands that changed nothing are kept (none: not kept) */
  quietKeys?: QuietKeys;
}

export type CommandHandler = ReturnType<typeof createCommandHandler>;

interface Waiting<Command> extends Queued<Command> {
  decider: Decider<unknown, Command, DomainEvent>;
  resolve(result: CommandResult<unknown, DomainEvent>): void;
  reject(error: unknown): void;
}

const FIRST_BACKOFF_MS = 2;
const MAX_BACKOFF_MS = 250;

export function createCommandHandler(events: EventStore, options: CommandHandlerOptions = {}) {
  const retryDeadlineMs = options.retryDeadlineMs ?? 5_000;
  const maxBatch = options.maxBatch ?? 256;
  const cache = new StateCache(options.cacheSize ?? 50_000);
  /** commands waiting per stream; a stream has an entry only while its lane runs */
  const lanes = new Map<string, Waiting<unknown>[]>();
  const firsts = firstAttempts(events, options.quietKeys);

  async function load<State>(streamId: string, decider: Decider<State, unknown, DomainEvent>) {
    const cached = cache.get<State>(streamId);
    let state = cached?.state ?? decider.initialState();
    let revision = cached?.revision ?? -1;
    const keyed = new Map(cached?.keyed ?? []);
    let position = cached?.position ?? null;
    let occurredAt = cached?.occurredAt ?? 0;
    const tail = await events.readStream(streamId, { fromRevision: revision + 1 });
    for (const event of tail) {
      state = decider.evolve(state, event as unknown as DomainEvent);
      revision = event.revision;
      position = event.position;
      occurredAt = Math.max(occurredAt, event.metadata.occurredAt);
      const given = event.metadata.idempotencyKey;
      if (given) {
        const key = scopedKey(event.metadata.actor ?? null, given);
        keyed.set(key, [...(keyed.get(key) ?? []), event]);
      }
    }
    // A snapshot cached meanwhile at least as far along stays (this process's own append), and a
    // tail read while this process writes the stream may be its own append, not another
    // writer's: a read racing a busy lane must not mark the stream shared, or every later
    // decision on it would read the stream first (the lane's own conflicts mark it when it is).
    const latest = cache.get<State>(streamId);
    if (latest && latest !== cached && latest.revision >= revision) {
      return { state, revision, keyed, shared: latest.shared === true, position, occurredAt };
    }
    const elsewhere = tail.length > 0 && !lanes.has(streamId);
    const known = cached?.shared === true || latest?.shared === true;
    const shared = known || (cached !== undefined && elsewhere);
    const snapshot = { state, revision, keyed, shared, position, occurredAt };
    if (tail.length > 0 || !cached) cache.set(streamId, snapshot);
    return snapshot;
  }

  /** Whether the stored stream ends before `revision` (a snapshot ahead of the log). */
  async function behindSnapshot(streamId: string, revision: number): Promise<boolean> {
    if (revision < 0) return false;
    const at = await events.readStream(streamId, { fromRevision: revision, maxCount: 1 });
    return at.length === 0;
  }

  async function runLane(streamId: string, lane: Waiting<unknown>[]): Promise<void> {
    while (lane.length > 0) {
      // one decider per stream; a caller passing another one gets a batch of its own
      const decider = lane[0]!.decider;
      let size = 1;
      while (size < lane.length && size < maxBatch && lane[size]!.decider === decider) size++;
      const batch = lane.splice(0, size);
      try {
        await appendBatch(streamId, decider, batch);
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
      }
    }
    lanes.delete(streamId);
  }

  async function appendBatch(
    streamId: string,
    decider: Decider<unknown, unknown, DomainEvent>,
    batch: Waiting<unknown>[],
  ): Promise<void> {
    const deadline = performance.now() + retryDeadlineMs;
    const quiet = await firsts.quietOf(streamId, batch);
    for (let attempt = 0; ; attempt++) {
      // The first attempt decides on the cached snapshot without reading the stream's tail: the
      // append's expected revision proves it current, and a writer in another process makes the
      // append fail and the next attempt read. A decision that appends nothing (a refusal, a
      // no-op) proves nothing, so it is made again on the stream as stored.
      const cached = attempt === 0 ? cache.get(streamId) : undefined;
      const trusted = cached?.shared ? undefined : cached;
      let snapshot = trusted ?? (await load(streamId, decider));
      let decided = decideBatch(decider, snapshot, batch, quiet);
      if (trusted && decided.toAppend.length === 0) {
        snapshot = await load(streamId, decider);
        decided = decideBatch(decider, snapshot, batch, quiet);
      }
      await firsts.asFirstLeft(streamId, decider, decided);
      if (decided.toAppend.length === 0) {
        await firsts.keepQuiet(streamId, batch, decided);
        settle(batch, decided, [], null);
        return;
      }
      try {
        const started = performance.now();
        const appended = await events.appendToStream(streamId, decided.toAppend, {
          expectedRevision: snapshot.revision === -1 ? 'no_stream' : snapshot.revision,
        });
        options.onAppend?.((performance.now() - started) / 1000, decided.toAppend.length);
        const recorded = recordedOf(
          streamId,
          decided.toAppend,
          snapshot.revision + 1,
          appended.position,
        );
        const keyed = new Map(snapshot.keyed);
        for (const outcome of decided.outcomes) {
          if (outcome.kind === 'decided' && outcome.newKey) {
            keyed.set(outcome.newKey, recorded.slice(outcome.from, outcome.to));
          }
        }
        cache.set(streamId, {
          state: decided.state,
          revision: decided.revision,
          keyed,
          shared: attempt > 0 || snapshot.shared,
          position: appended.position,
          occurredAt: decided.occurredAt,
        });
        await firsts.keepQuiet(streamId, batch, decided);
        settle(batch, decided, recorded, appended.position);
        return;
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) {
          options.onAppendFailed?.(error);
          throw error;
        }
        // the snapshot stays: it is true up to its revision, so the next attempt reads only the
        // events appended since (a long stream folded from its start on every conflict starves
        // a writer in another process behind a busy one) — unless the stored stream does not
        // even reach that revision, which no tail read would mend (looked at from the second
        // conflict on: one more cheap read, only where conflicts repeat)
        if (attempt > 0 && (await behindSnapshot(streamId, snapshot.revision))) {
          cache.delete(streamId);
        }
        if (performance.now() >= deadline) {
          throw new Unavailable(`too many concurrent changes to ${streamId}; try again`, 1);
        }
        const ceiling = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** attempt);
        await sleep(Math.random() * ceiling);
      }
    }
  }

  return {
    handle<State, Command, Event extends DomainEvent>(
      streamId: string,
      decider: Decider<State, Command, Event>,
      command: Command,
      context: CommandContext,
    ): Promise<CommandResult<State, Event>> {
      return new Promise((resolve, reject) => {
        const waiting = {
          command,
          context,
          commandHash: context.idempotencyKey
            ? (context.requestHash ?? hashCommand(command))
            : undefined,
          decider,
          resolve,
          reject,
        } as unknown as Waiting<unknown>;
        const lane = lanes.get(streamId);
        if (lane) {
          lane.push(waiting);
          return;
        }
        const fresh = [waiting];
        lanes.set(streamId, fresh);
        void runLane(streamId, fresh);
      });
    },

    /**
     * The stream's state as this process last folded it, without reading the stream (read only
     * when it holds none): for a look-ahead whose miss costs nothing because the decider has the
     * last word. A busy stream's tail folded again per look would cost its writers dearly (a
     * product's allocations were copied once per event of the tail).
     */
    async peek<State, Event extends DomainEvent>(
      streamId: string,
      decider: Decider<State, unknown, Event>,
    ): Promise<State> {
      const cached = cache.get<State>(streamId);
      if (cached) return cached.state;
      return (await load(streamId, decider as Decider<State, unknown, DomainEvent>)).state;
    },

    /**
     * Fold a stream without deciding (for commands that need another aggregate's state, or to
     * refuse early). `retry`: the stream already holds events of `context`'s Idempotency-Key (or
     * its first attempt changed nothing and was kept), so a command with it will be answered from
     * that attempt — an early refusal must let it through.
     * `position`: the global position of the stream's last event, for a reader to wait for.
     */
    async load<State, Event extends DomainEvent>(
      streamId: string,
      decider: Decider<State, unknown, Event>,
      context?: CommandContext,
    ): Promise<{ state: State; revision: number; retry: boolean; position: bigint | null }> {
      const { state, revision, keyed, position } = await load(
        streamId,
        decider as Decider<State, unknown, DomainEvent>,
      );
      const key = context?.idempotencyKey && scopedKey(context.actor, context.idempotencyKey);
      const retry = !!key && (keyed.has(key) || (await firsts.keptQuiet(streamId, key)));
      return { state, revision, retry, position };
    },
  };
}

/** Answer every command of a durable batch with its own outcome. */
function settle(
  batch: Waiting<unknown>[],
  decided: DecidedBatch<unknown>,
  recorded: RecordedEvent[],
  position: bigint | null,
): void {
  batch.forEach((waiting, i) => {
    const outcome = decided.outcomes[i]!;
    if (outcome.kind === 'refused') {
      waiting.reject(outcome.error);
      return;
    }
    const own = outcome.stored ?? recorded.slice(outcome.from, outcome.to);
    // A command that decided nothing after others of its batch appended still answered from
    // their state: its reader must wait for them too.
    const after = outcome.stored
      ? own.at(-1)!.position
      : own.length > 0 || outcome.from > 0
        ? position
        : null;
    waiting.resolve({
      events: own,
      state: outcome.state,
      revision: outcome.revision,
      position: after,
      replayed: outcome.replayed,
    });
  });
}
