/**
 * The bodies of webhook messages, for the dispatcher's attempts: the last few thousand built
 * (by the fan-out, as deliveries are made) are kept; an older one is composed again from its
 * event in the log, the same way, so every attempt of a delivery sends the same body.
 */
import type { EventStore } from '../../eventstore/types.js';
import type { Composer } from '../messages/compose.js';

const BODY_CACHE = 2_000;

export interface PayloadSource {
  messageId: string;
  _source: { streamId: string; revision: number } | null;
}

export function createPayloads(deps: { eventStore: EventStore; composer: Composer }) {
  const bodies = new Map<string, string>();

  function remember(messageId: string, body: string): void {
    bodies.set(messageId, body);
    if (bodies.size > BODY_CACHE) bodies.delete(bodies.keys().next().value as string);
  }

  /** The message's body; null when its event no longer makes a message. */
  async function payloadOf(doc: PayloadSource): Promise<string | null> {
    const known = bodies.get(doc.messageId);
    if (known) return known;
    if (!doc._source) return null;
    const [event] = await deps.eventStore.readStream(doc._source.streamId, {
      fromRevision: doc._source.revision,
      maxCount: 1,
    });
    const message = event ? await deps.composer.compose(event) : null;
    if (!message) return null;
    const body = JSON.stringify(message);
    remember(doc.messageId, body);
    return body;
  }

  return { remember, payloadOf };
}
