/**
 * Projector test harness: events with realistic streams, revisions and positions, applied to
 * a real embedded read store in a temp dir.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DomainEvent } from '../../commands/shared/decider.js';
import type { Projector } from '../../projections/shared/projector.js';
import type { RecordedEvent } from '../../src/eventstore/types.js';
import { matchesFilter } from '../../src/eventstore/types.js';
import { openEmbeddedReadStore } from '../../src/readstore/embedded/index.js';
import type { ReadStore } from '../../src/readstore/types.js';

export class EventLog {
  readonly events: RecordedEvent[] = [];
  private position = 0n;
  private readonly revisions = new Map<string, number>();

  add(streamId: string, event: DomainEvent, at = 1_000 + this.events.length): RecordedEvent {
    const revision = (this.revisions.get(streamId) ?? -1) + 1;
    this.revisions.set(streamId, revision);
    this.position += 10n;
    const recorded: RecordedEvent = {
      id: `e${this.position}`,
      type: event.type,
      data: event.data,
      metadata: { actor: 'u1', occurredAt: at, correlationId: 'c', causationId: null },
      streamId,
      revision,
      position: this.position,
    };
    this.events.push(recorded);
    return recorded;
  }
}

export async function withReadStore(run: (store: ReadStore) => Promise<void>): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'projection-'));
  const store = await openEmbeddedReadStore({ path: path.join(dir, 'read.sqlite') });
  try {
    await run(store);
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Feed events the way the engine does: set up once, then every matching event in order. */
export async function project(
  projector: Projector,
  store: ReadStore,
  events: readonly RecordedEvent[],
): Promise<void> {
  await projector.setup?.(store);
  for (const event of events) {
    if (matchesFilter(event, projector.filter)) await projector.apply(event, store);
  }
}

/** Every document of the projector's collections, for "runs twice, changes nothing". */
export async function snapshot(projector: Projector, store: ReadStore): Promise<unknown> {
  const out: Record<string, unknown> = {};
  for (const name of projector.collections) {
    out[name] = await store.collection(name).find({}, { sort: { _id: 1 } });
  }
  return out;
}
