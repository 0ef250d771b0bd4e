/**
 * A dispatcher over a memory store whose receivers hold every request open until the test
 * answers them: how the lane window (lane-window.int) and the bound on attempts in flight
 * (in-flight-bound.int) are put under a slow receiver's pressure. Webhook `h` (0-based) is
 * `wh_<h+1>` of workspace `ws<h+1>`; the message ids say whose a message is and its number.
 */
import { webhooksOf } from '../../../projections/webhooks/document.js';
import { silentLogger } from '../../../src/platform/logger.js';
import { createMemoryReadStore } from '../../../src/readstore/embedded/memory.js';
import { createDispatcher } from '../../../src/webhooks/delivery/dispatcher.js';
import { deliveriesOf, newDelivery } from '../../../src/webhooks/delivery/records.js';
import type { AttemptRequest, AttemptResponse } from '../../../src/webhooks/delivery/sender.js';
import { newSigningSecret } from '../../../src/webhooks/secrets.js';
import { webhookDoc } from './attempts.js';
import { policy, secrets } from './board.js';

/** `msg_wh_2:0007`: message 7 of webhook wh_2 */
const messageIdOf = (hookId: string, n: number) => `msg_${hookId}:${String(n).padStart(4, '0')}`;
/** the number of a message, from its id */
export const numberOf = (messageId: string) => Number(messageId.split(':')[1]);
/** a webhook's messages in the order they were made */
export const inOrder = (ids: string[]) => [...ids].sort();

export async function holdingReceivers(options: {
  hooks: number;
  concurrency: number;
  maxInFlight?: number;
}) {
  const store = createMemoryReadStore();
  const hookIds = Array.from({ length: options.hooks }, (_, h) => `wh_${h + 1}`);
  for (const [h, id] of hookIds.entries()) {
    const ws = `ws${h + 1}`;
    const secret = secrets.seal(newSigningSecret(), id);
    await webhooksOf(store).insertOne(
      webhookDoc({ _id: `${ws}.${id}`, id, _ws: ws, _secret: secret }),
    );
  }
  /** the message ids each webhook's receiver was sent, in the order they arrived */
  const sent = new Map<string, string[]>(hookIds.map((id) => [id, []]));
  /** the requests the receivers hold, each answered when its function is called */
  const holding: (() => void)[] = [];
  let holds = true;
  let inFlight = 0;
  let peak = 0;
  const dispatcher = createDispatcher({
    readStore: store,
    clock: { now: () => 1000 },
    sender: {
      async send(request: AttemptRequest): Promise<AttemptResponse> {
        inFlight++;
        peak = Math.max(peak, inFlight);
        const messageId = request.headers['webhook-id']!;
        sent.get(messageId.slice(4).split(':')[0]!)!.push(messageId);
        if (holds) await new Promise<void>((resolve) => holding.push(resolve));
        inFlight--;
        return { status: 204, excerpt: null, error: null, durationMs: 1 };
      },
      close() {},
    },
    policy,
    secrets,
    payloadOf: async () => '{}',
    concurrency: options.concurrency,
    ...(options.maxInFlight ? { maxInFlight: options.maxInFlight } : {}),
    // no periodic scan to come to the rescue within a test: what waits in the store is sent only
    // because the dispatcher asked for it
    pollMs: 60_000,
    disable: async () => true,
    persist: () => {},
    logger: silentLogger,
  });
  await dispatcher.start();
  return {
    store,
    dispatcher,
    sent,
    holding,
    /** most attempts that were in flight at once */
    peak: () => peak,
    /** message `n` of webhook `hook` about item `item`, stored and handed over as the worker does */
    async message(hook: number, n: number, item: number) {
      const id = hookIds[hook]!;
      const ws = `ws${hook + 1}`;
      const doc = newDelivery({
        hookKey: `${ws}.${id}`,
        webhookId: id,
        workspaceId: ws,
        messageId: messageIdOf(id, n),
        eventType: 'item.updated',
        now: 1000,
        position: BigInt(hook * 10_000 + n + 1),
        source: { streamId: `item-${ws}.APP-${item}`, revision: n },
        payload: '{}',
        correlationId: null,
      });
      await deliveriesOf(store).insertOne(doc);
      dispatcher.enqueue(doc);
    },
    /** answer what is held and all that comes after */
    answerAll() {
      holds = false;
      for (const answer of holding.splice(0)) answer();
    },
    async until(check: () => boolean) {
      const deadline = Date.now() + 10_000;
      while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    },
  };
}
