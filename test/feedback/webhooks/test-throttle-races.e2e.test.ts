/**
 * Test messages asked for together (send_test_webhook). README (Webhooks): "at most 5 calls per
 * webhook and 20 per workspace in any minute (`WEBHOOK_TESTS_PER_WEBHOOK_PER_MINUTE`,
 * `WEBHOOK_TESTS_PER_WORKSPACE_PER_MINUTE`)" — 3 and 5 here. A send holds its place in each
 * window before it is made, all or none (src/limits/holds.ts): asked first and counted after,
 * sends arriving together all passed the look, then the webhook's window refused those past its
 * 3 after the workspace's had counted them, so the workspace's 5 were spent by 3 messages. The
 * store holds the reads that come just before the throttle so that the sends meet there whatever
 * the timing; the rest runs as in production over HTTP on 127.0.0.1.
 */
import { expect } from 'chai';
import { DELIVERIES } from '../../../src/webhooks/delivery/records.js';
import { heldReadsIn } from '../../support/held-reads.js';
import {
  hook,
  type Receiver,
  startWorldWith,
  stopWorld,
  subscribe,
  type World,
} from './support/world.js';

const TOGETHER = 8;

describe('When an admin asks for test messages all at once (e2e)', () => {
  let world: World;
  let receiver: Receiver;
  let reads: ReturnType<typeof heldReadsIn>;

  before(async () => {
    [world, receiver] = await startWorldWith(1, {
      env: {
        WEBHOOK_TESTS_PER_WEBHOOK_PER_MINUTE: '3',
        WEBHOOK_TESTS_PER_WORKSPACE_PER_MINUTE: '5',
      },
    });
    reads = heldReadsIn(world.fb.deps().readStore, [DELIVERIES]);
  });
  after(() => stopWorld(world, receiver));
  const sendTests = (id: string) =>
    Promise.all(
      Array.from({ length: TOGETHER }, () =>
        world.fb.api(world.owner.token).post(`${hook(id)}/test`, undefined),
      ),
    );

  it("sends exactly the webhook's 3 of 8, and the 5 refused leave the workspace 2 more", async () => {
    const one = await subscribe(world, `${receiver.url}?n=1`);
    const two = await subscribe(world, `${receiver.url}?n=2`);
    // each send looks for its delivery (a keyed retry's) just before the throttle: all meet there
    const met = reads.hold(DELIVERIES, TOGETHER, { answered: true });
    const answers = sendTests(one.id);
    for (const release of await met) release();
    const statuses = (await answers).map((res) => res.status).sort();
    expect(statuses).to.deep.equal([200, 200, 200, 429, 429, 429, 429, 429]);

    const more = await sendTests(two.id);
    const sent = more.filter((res) => res.status === 200).length;
    expect(
      sent,
      more.map((res) => `${res.status} ${JSON.stringify(res.body)}`).join('\n'),
    ).to.equal(2);
  });
});
