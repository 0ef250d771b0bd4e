/**
 * Deciding a batch: the commands queued on one stream, decided one after the other on the state
 * each predecessor left, so that they become one append (one fsync) instead of one each. Each
 * command keeps its own outcome — its events, a refusal, or the answer of an earlier attempt
 * with the same Idempotency-Key — and nothing is settled until the append is durable.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Decider, DomainEvent } from '../../commands/shared/decider.js';
import { Conflict } from '../../commands/shared/errors.js';
import { anotherRequest, REQUEST_HASH_SCHEME } from '../../commands/shared/request-hash.js';
import type { EventMetadata, NewEvent, RecordedEvent } from '../eventstore/types.js';
import type { Snapshot } from './state-cache.js';

/** Who issues the command and when; becomes the events' metadata. */
export interface CommandContext {
  actor: string | null;
  via?: string;
  /** the id of the credential the request came with (EventMetadata) */
  credentialId?: string;
  now: number;
  correlationId?: string;
  /** the client's own `x-correlation-id`, kept beside the server's (EventMetadata) */
  clientCorrelationId?: string;
  causationId?: string | null;
  idempotencyKey?: string;
  /**
   * What a retry with the same Idempotency-Key must repeat to be the same request, when the
   * command holds what a retry cannot rebuild as it was (keyedBy): the request's own fields.
   * Default: the whole command.
   */
  requestHash?: string;
  /**
   * A precondition the request failed (an If-Match other than `*` or an If-None-Match `*` on a
   * resource without ETag, RFC 9110 §13.1.1, §13.1.2): the command is decided — its own refusals, such as not found, answer first
   * (§13.2.1) — then refused with this error instead of appending anything.
   */
  unmetPrecondition?: Error;
}

export interface Queued<Command> {
  command: Command;
  context: CommandContext;
  /** hash of the command, when it carries an Idempotency-Key */
  commandHash?: string;
}

/** What one command of the batch comes to, before the append tells the positions. */
export type Outcome<State> =
  | { kind: 'refused'; error: unknown }
  | {
      kind: 'decided';
      state: State;
      /** stream revision after this command (its own events included) */
      revision: number;
      /** index range of its events within the batch's append; empty when it decided nothing */
      from: number;
      to: number;
      /** answered from an earlier attempt with the same Idempotency-Key */
      replayed: boolean;
      /** that earlier attempt's events, when they were already in the log */
      stored?: RecordedEvent[];
      /** its Idempotency-Key, when its events are new (the cache learns them after the append) */
      newKey?: string;
      /** its Idempotency-Key, when it is a first attempt that changed nothing (quiet-keys.ts) */
      quietKey?: string;
      /** the revision an earlier attempt that changed nothing answered at: the state to answer */
      answeredAt?: number;
    };

/** An earlier attempt of a keyed command that changed nothing (quiet-keys.ts). */
export interface QuietOutcome {
  /** its request hash, to tell a retry from another request with the same key */
  hash?: string;
  /** the stream revision it answered at */
  revision: number;
}

const NO_QUIET: ReadonlyMap<string, QuietOutcome> = new Map();

export interface DecidedBatch<State> {
  toAppend: NewEvent[];
  outcomes: Outcome<State>[];
  /** state and revision after the whole batch */
  state: State;
  revision: number;
  /** the latest `occurredAt` after the whole batch */
  occurredAt: number;
}

/**
 * An Idempotency-Key belongs to whoever sent it (as Stripe scopes keys to the account): the same
 * key from another actor on the same stream is another request, never "already used".
 */
export function scopedKey(actor: string | null, key: string): string {
  return `${actor ?? ''}\u0000${key}`;
}

export function decideBatch<State, Command, Event extends DomainEvent>(
  decider: Decider<State, Command, Event>,
  snapshot: Snapshot<State>,
  queued: readonly Queued<Command>[],
  /** keyed attempts of these commands that changed nothing, by scoped key (quiet-keys.ts) */
  quiet: ReadonlyMap<string, QuietOutcome> = NO_QUIET,
): DecidedBatch<State> {
  let { state, revision } = snapshot;
  // A stream's events are stamped in the order they happen, even when the clock is set back
  // (NTP stepping it, an operator's fix): an event never gets an earlier time than the one
  // before it, or "as of" a time would answer a later revision than the one current then.
  let occurredAt = snapshot.occurredAt ?? 0;
  const toAppend: NewEvent[] = [];
  const outcomes: Outcome<State>[] = [];
  /** keys first used in this batch: the hash and outcome of their first command */
  const fresh = new Map<string, { hash?: string; outcome: Outcome<State> }>();
  for (const { command, context, commandHash } of queued) {
    const key = context.idempotencyKey && scopedKey(context.actor, context.idempotencyKey);
    if (key) {
      const stored = snapshot.keyed.get(key);
      const earlier = fresh.get(key);
      const noop = stored || earlier ? undefined : quiet.get(key);
      const firstHash = stored
        ? stored[0]!.metadata.commandHash
        : earlier
          ? earlier.hash
          : noop?.hash;
      if (stored || earlier || noop) {
        if (anotherRequest(firstHash, commandHash)) {
          outcomes.push({
            kind: 'refused',
            error: new Conflict('Idempotency-Key was already used for a different request'),
          });
        } else if (stored) {
          outcomes.push(replayOf(state, revision, { stored }));
        } else if (earlier) {
          outcomes.push({
            ...earlier.outcome,
            replayed: true,
            newKey: undefined,
            quietKey: undefined,
          } as Outcome<State>);
        } else {
          // it changed nothing then: decided again, it could undo what others did since
          outcomes.push(replayOf(state, revision, { answeredAt: noop!.revision }));
        }
        continue;
      }
    }
    let decided: Event[];
    try {
      decided = decider.decide(command, state);
      if (context.unmetPrecondition) throw context.unmetPrecondition;
    } catch (error) {
      outcomes.push({ kind: 'refused', error });
      continue;
    }
    const from = toAppend.length;
    occurredAt = Math.max(occurredAt, context.now);
    const metadata = toMetadata(context, occurredAt, commandHash);
    for (const event of decided) {
      toAppend.push({ id: randomUUID(), type: event.type, data: event.data, metadata });
      state = decider.evolve(state, event);
      revision++;
    }
    const outcome: Outcome<State> = {
      kind: 'decided',
      state,
      revision,
      from,
      to: toAppend.length,
      replayed: false,
      ...(key ? (decided.length > 0 ? { newKey: key } : { quietKey: key }) : {}),
    };
    outcomes.push(outcome);
    if (key) fresh.set(key, { hash: commandHash, outcome });
  }
  return { toAppend, outcomes, state, revision, occurredAt };
}

/**
 * A retry answered from its first attempt, kept before this batch: its events, or the revision it
 * answered at when it changed nothing (the state is set to that attempt's by asFirstLeft).
 */
function replayOf<State>(
  state: State,
  revision: number,
  first: { stored: RecordedEvent[] } | { answeredAt: number },
): Outcome<State> {
  return { kind: 'decided', state, revision, from: 0, to: 0, replayed: true, ...first };
}

/** The appended events as recorded: revisions follow the expected one; the position is the last. */
export function recordedOf(
  streamId: string,
  toAppend: readonly NewEvent[],
  firstRevision: number,
  position: bigint,
): RecordedEvent[] {
  return toAppend.map((event, i) => ({
    ...event,
    id: event.id!,
    streamId,
    revision: firstRevision + i,
    // only the batch's last position is known exactly; it is what read-your-writes waits for
    position,
  }));
}

function toMetadata(
  context: CommandContext,
  occurredAt: number,
  commandHash: string | undefined,
): EventMetadata {
  const metadata: EventMetadata = {
    actor: context.actor,
    occurredAt,
    correlationId: context.correlationId ?? randomUUID(),
    causationId: context.causationId ?? null,
  };
  if (context.via) metadata.via = context.via;
  if (context.credentialId) metadata.credentialId = context.credentialId;
  if (context.clientCorrelationId) metadata.clientCorrelationId = context.clientCorrelationId;
  if (context.idempotencyKey) {
    metadata.idempotencyKey = context.idempotencyKey;
    metadata.commandHash = commandHash;
  }
  return metadata;
}

/**
 * The context of a command a retry cannot rebuild as it was (it holds a value made fresh on each
 * attempt, or ids resolved from names that may have changed since): a retry with the same
 * Idempotency-Key is the same request when `request` — what the caller sent — is the same.
 */
export function keyedBy(context: CommandContext, request: unknown): CommandContext {
  return context.idempotencyKey ? { ...context, requestHash: hashCommand(request) } : context;
}

/** The request hash of `command`, under the current scheme (commands/shared/request-hash.ts). */
export function hashCommand(command: unknown): string {
  return REQUEST_HASH_SCHEME + createHash('sha256').update(stableJson(command)).digest('base64url');
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
