/**
 * Issue 18: "Messages are produced by a worker subscribed to the event log from its own
 * checkpoint — never by projection rebuilds or replays (a `rebuild` sends nothing)."
 * "Must show": "`rebuild` sends nothing".
 */
import { expect } from 'chai';
import { startFeedback } from '../support/harness.js';
import { tempDir } from '../../support/stores.js';
import { cliOk, removeDir } from '../../cli/support.js';
import {
  hook,
  type Receiver,
  settle,
  startReceiver,
  startWorld,
  submit,
  submitPath,
  subscribe,
  type World,
} from './support/world.js';

describe('Rebuilding read models while webhooks are subscribed (e2e)', () => {
  let receiver: Receiver;
  beforeEach(async () => {
    receiver = await startReceiver();
  });
  afterEach(() => receiver.close());

  async function deliveriesOf(world: World, id: string, token = world.owner.token) {
    return (await world.fb.api(token).get(`${hook(id)}/deliveries?pageSize=200`)).body.items;
  }

  describe('When the running service rebuilds the items and webhooks read models', () => {
    it('sends nothing again: the next message is the only new request', async () => {
      const world = await startWorld();
      try {
        const { id } = await subscribe(world, receiver);
        for (let i = 0; i < 3; i++) await submit(world, `Before rebuild ${i}`);
        await receiver.until(3);
        await settle(world, id);
        const engine = world.fb.runtime.runtime.engine!;
        await engine.rebuild('items');
        await engine.rebuild('webhooks');
        await world.fb.caughtUp();
        await submit(world, 'After rebuild');
        await receiver.until(4);
        await settle(world, id);
        expect(receiver.received).to.have.length(4);
        expect(new Set(receiver.received.map((r) => r.id)).size).to.equal(4);
        const log = await deliveriesOf(world, id);
        expect(log.map((d: any) => d.attemptCount)).to.deep.equal([1, 1, 1, 1]);
      } finally {
        await world.fb.stop();
      }
    });
  });

  describe('When an operator runs `npm run cli -- rebuild` with the service stopped', () => {
    it('sends nothing again after the restart', async function () {
      this.timeout(120_000);
      const dir = tempDir('webhook-rebuild-');
      try {
        const world = await startWorld({ env: { DATA_DIR: dir } });
        const { id } = await subscribe(world, receiver);
        for (let i = 0; i < 3; i++) await submit(world, `Before rebuild ${i}`);
        await receiver.until(3);
        await settle(world, id);
        await world.fb.stop();

        for (const projector of ['items', 'webhooks', 'workspaces']) {
          expect(await cliOk(dir, 'rebuild', '--projector', projector)).to.match(/^rebuilt /);
        }

        const fb = await startFeedback({
          env: { DATA_DIR: dir, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
        });
        try {
          const again = { ...world, fb };
          const res = await fb.api(world.owner.token).post(submitPath(), { body: 'After' });
          expect(res.status).to.equal(200);
          await receiver.until(4);
          await settle(again, id);
          expect(receiver.received).to.have.length(4);
          const log = await deliveriesOf(again, id);
          expect(log.map((d: any) => d.attemptCount)).to.deep.equal([1, 1, 1, 1]);
        } finally {
          await fb.stop();
        }
      } finally {
        removeDir(dir);
      }
    });
  });
});
