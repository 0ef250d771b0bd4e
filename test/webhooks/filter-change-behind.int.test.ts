/**
 * A webhook's filters judge an event as they were when it was appended, however late the worker
 * fans it out (README, Webhooks: "A change of them applies to what happens after it, as a new
 * webhook receives what happens after it was created — also when the worker is behind"). The
 * worker starts only after both the events and the filter changes are in the log: it is behind,
 * as after an outage. Before, events from before a change were judged by the new filters: a
 * narrowed webhook lost messages it had subscribed to, a widened one got messages from before.
 * Embedded stores, real receivers on 127.0.0.1.
 */
import { expect } from 'chai';
import * as actions from '../../src/feedback/actions/index.js';
import type { WebhookWorker } from '../../src/webhooks/worker/worker.js';
import { createCommandHandler } from '../../src/write/command-handler.js';
import { type Receiver, startReceiver } from '../feedback/webhooks/support/receiver.js';
import { eventually } from '../feedback/webhooks/support/world.js';
import { withPersonIds } from '../support/person-ids.js';
import { openTestStores, type TestStores } from '../support/stores.js';
import {
  policy,
  type ProjectionEngine,
  secrets,
  seedBoard,
  startableWorker,
  startProjections,
} from './support/board.js';

describe('Webhook worker: a filter changed while the worker is behind (integration)', function () {
  this.timeout(30_000);
  let stores: TestStores;
  let engine: ProjectionEngine;
  let narrowed: Receiver;
  let widened: Receiver;
  let worker: WebhookWorker | undefined;
  let workspaceId: string;

  const deps = () =>
    withPersonIds({
      commandHandler: createCommandHandler(stores.eventStore),
      readStore: stores.readStore,
    });
  const context = (actor = 'filter-test') => ({ actor, now: Date.now() });
  const hookDeps = () => ({ ...deps(), secrets, policy, maxPerWorkspace: 20 });
  const submit = (body: string) =>
    actions.submitFeedback(deps(), context(), {
      workspaceId,
      productKey: 'APP',
      body,
      requester: { email: 'someone@example.com' },
    });

  before(async () => {
    stores = await openTestStores();
    engine = await startProjections(stores);
    narrowed = await startReceiver();
    widened = await startReceiver();
    workspaceId = await seedBoard(stores, () => context(), ['APP', 'WEB']);
  });
  after(async () => {
    await worker?.stop();
    await engine.stop();
    await narrowed.close();
    await widened.close();
    await stores.cleanup();
  });

  it('judges each event by the filters it met when it was appended', async () => {
    const create = (receiver: Receiver, productKeys: string[], actor: string) =>
      actions.createWebhook(hookDeps(), context(actor), {
        workspaceId,
        url: receiver.url,
        productKeys,
      });
    const narrow = await create(narrowed, ['APP', 'WEB'], 'admin-1');
    const widen = await create(widened, ['WEB'], 'admin-2');
    await submit('Before the change');
    for (const [hook, productKeys] of [
      [narrow, ['WEB']],
      [widen, ['APP', 'WEB']],
    ] as const) {
      const { position } = await actions.updateWebhook(hookDeps(), context(), {
        workspaceId,
        webhookId: hook.webhookId,
        productKeys: [...productKeys],
      });
      await engine.waitFor(position!);
    }
    await submit('After the change');

    worker = startableWorker(stores, engine);
    await worker.start();
    await eventually(
      async () => BigInt(worker!.status().checkpoint) >= (await stores.eventStore.headPosition()),
      'the worker to reach the head of the log',
    );
    await narrowed.until(1);
    await widened.until(1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const bodies = (receiver: Receiver) =>
      receiver.received.map((r) => JSON.parse(r.body).data.item.body);
    expect(bodies(narrowed), 'the narrowed webhook (APP, WEB → WEB)').to.deep.equal([
      'Before the change',
    ]);
    expect(bodies(widened), 'the widened webhook (WEB → APP, WEB)').to.deep.equal([
      'After the change',
    ]);
  });
});
