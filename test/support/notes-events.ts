/** Recorded events of the notes service for projector tests, with increasing positions. */
import type { RecordedEvent } from '../../src/eventstore/types.js';

export function eventLog() {
  let position = 0n;
  const revisions = new Map<string, number>();
  const log: RecordedEvent[] = [];
  return {
    log,
    /** append an event to the fake log; `at` is occurredAt */
    add(streamId: string, type: string, data: unknown, at: number): RecordedEvent {
      position += 10n;
      const revision = (revisions.get(streamId) ?? -1) + 1;
      revisions.set(streamId, revision);
      const event: RecordedEvent = {
        id: `e${position}`,
        type,
        data,
        metadata: { actor: null, occurredAt: at, correlationId: 'c', causationId: null },
        streamId,
        revision,
        position,
      };
      log.push(event);
      return event;
    },
  };
}
