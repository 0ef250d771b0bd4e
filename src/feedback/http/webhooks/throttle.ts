/**
 * What an admin may make the service send at once (send_test_webhook, redeliver_webhook,
 * recover_webhook). Each sends to the webhook's URL now, and the delivery log shows the first KB
 * of what the target answered: unbounded, an admin could point a webhook at any public host and
 * port (update_webhook) and read its answers as fast as they could call — a port scanner run
 * from our addresses — or have one recover send a thousand requests to it at once.
 *
 * Two kinds of sending, each counted in what it causes:
 *  - a single message whose answer the caller reads (a test, a redelivery): one each, in the
 *    figures of WEBHOOK_TESTS_PER_WEBHOOK_PER_MINUTE and WEBHOOK_TESTS_PER_WORKSPACE_PER_MINUTE;
 *  - recovered deliveries: every delivery a recover queues again, in the figures of
 *    WEBHOOK_RECOVERED_PER_WEBHOOK_PER_MINUTE and WEBHOOK_RECOVERED_PER_WORKSPACE_PER_MINUTE.
 * One currency would either let a recover after an outage queue a handful a minute, or let
 * redeliveries probe hosts a hundred times a minute. Each kind is also counted per caller (the
 * account: its tokens and apps share it) with the workspace's figure, so an admin of many
 * workspaces sends no more than an admin of one.
 *
 * Sliding windows of a minute, kept in the store so every API process counts against one figure.
 * A send holds its places in every window before it is made, all or none (src/limits/holds.ts):
 * sends asked together cannot all pass a look before any counts, a send one window refuses
 * spends nothing of the others, and one that sends nothing after all (a keyed retry's twin, a
 * delivery gone, deliveries another recover queued first) gives its places back.
 */
import { ResourceExhausted } from '../../../../commands/shared/errors.js';
import type { Config } from '../../../config/schema.js';
import { createLimits, holdAll, type Limiter } from '../../../limits/index.js';
import type { ReadStore } from '../../../readstore/types.js';

const MINUTE_SECONDS = 60;

/** who sends, and where to */
export interface Sending {
  workspaceId: string;
  /** the webhook document's id */
  hookKey: string;
  /** the caller's account */
  userId: string;
}

/** after the send: how many of the places held were sent (true: all, false: none) */
export type SettleSends = (sent: boolean | number) => Promise<void>;

export interface SendThrottle {
  /** holds one test or redelivery, or ResourceExhausted (429 with Retry-After) */
  single(what: 'test' | 'redelivery', sending: Sending): Promise<SettleSends>;
  /**
   * holds places for `room` of `wanted` recovered deliveries (the most every window has room
   * for); ResourceExhausted when there is room for none. Nothing wanted holds nothing.
   */
  recovered(sending: Sending, wanted: number): Promise<{ room: number; settle: SettleSends }>;
}

type ThrottleConfig = Pick<
  Config,
  | 'WEBHOOK_TESTS_PER_WEBHOOK_PER_MINUTE'
  | 'WEBHOOK_TESTS_PER_WORKSPACE_PER_MINUTE'
  | 'WEBHOOK_RECOVERED_PER_WEBHOOK_PER_MINUTE'
  | 'WEBHOOK_RECOVERED_PER_WORKSPACE_PER_MINUTE'
>;

export function createSendThrottle(deps: {
  readStore: ReadStore;
  now: () => number;
  config: ThrottleConfig;
}): SendThrottle {
  const { config } = deps;
  const limits = createLimits({ readStore: deps.readStore, now: deps.now });
  const window = (name: string, max: number) =>
    limits.limiter(name, { kind: 'sliding-window', max, windowSeconds: MINUTE_SECONDS });
  // the test windows keep their names, so the tests a running deployment counted still count
  const singles = windows(
    window('webhook-tests:webhook', config.WEBHOOK_TESTS_PER_WEBHOOK_PER_MINUTE),
    window('webhook-tests:workspace', config.WEBHOOK_TESTS_PER_WORKSPACE_PER_MINUTE),
    window('webhook-tests:caller', config.WEBHOOK_TESTS_PER_WORKSPACE_PER_MINUTE),
  );
  const recovered = windows(
    window('webhook-recovered:webhook', config.WEBHOOK_RECOVERED_PER_WEBHOOK_PER_MINUTE),
    window('webhook-recovered:workspace', config.WEBHOOK_RECOVERED_PER_WORKSPACE_PER_MINUTE),
    window('webhook-recovered:caller', config.WEBHOOK_RECOVERED_PER_WORKSPACE_PER_MINUTE),
  );

  return {
    async single(what, sending) {
      const hold = await holdAll(singles(sending));
      if (hold.status === 'throttled') throw tooMany(what, hold.wait);
      return hold.settle;
    },
    async recovered(sending, wanted) {
      if (wanted <= 0) return { room: 0, settle: async () => {} };
      const asked = recovered(sending);
      // the room each window has now; places held by sends under way are refused below
      const verdicts = await Promise.all(asked.map(([l, key]) => l.peek(key)));
      const room = Math.min(wanted, ...verdicts.map((v) => (v.allowed ? v.remaining : 0)));
      const hold = await holdAll(asked, Math.max(1, room));
      if (hold.status === 'throttled') throw tooMany('redelivery', hold.wait);
      return { room, settle: hold.settle };
    },
  };
}

/** the three windows of one kind, each with the key it counts under */
function windows(byWebhook: Limiter, byWorkspace: Limiter, byCaller: Limiter) {
  return (s: Sending) =>
    [
      [byWorkspace, s.workspaceId],
      [byWebhook, s.hookKey],
      [byCaller, s.userId],
    ] as const;
}

function tooMany(what: 'test' | 'redelivery', seconds: number): ResourceExhausted {
  const sends = what === 'test' ? 'test messages' : 'redeliveries';
  return new ResourceExhausted(`too many ${sends}; try again in ${seconds} s`, seconds);
}
