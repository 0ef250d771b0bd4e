/**
 * Narrowing recorded events to a domain union: `switch (e.type)` then types `e.data`.
 * The engine hands projectors untyped RecordedEvents; the cast is the one place we trust that
 * a stream's events were written by its decider (upcasting of old shapes would happen here).
 */
import type { DomainEvent } from '../../commands/shared/decider.js';
import type { RecordedEvent } from '../../src/eventstore/types.js';

export type Recorded<E extends DomainEvent> =
  E extends DomainEvent<infer T, infer D> ? RecordedEvent<T, D> : never;

export function asRecorded<E extends DomainEvent>(event: RecordedEvent): Recorded<E> {
  return event as unknown as Recorded<E>;
}

/** The document without its internal fields (`_id`, `_pos`, `_ws`, …): what the API shows. */
export function withoutInternals<T extends Record<string, unknown>>(
  doc: T,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(doc)) if (!k.startsWith('_')) out[k] = v;
  return out;
}
