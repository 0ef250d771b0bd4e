/**
 * Webhook creations racing other requests (a concurrency audit found both).
 *
 * The most webhooks a workspace may have (WEBHOOKS_PER_WORKSPACE; README: "create_webhook
 * answers 409 past it") under concurrent creations. The count was made on the read model, which
 * lists a webhook only once its creation is projected, so requests in flight together all saw
 * room (40 at once made 40). Creations now append an intent to the workspace's webhook roster
 * (commands/webhook/roster.ts) at the revision their count followed.
 *
 * An OAuth app creating a webhook while the user disconnects it: the disconnect disables the
 * webhooks the app set (revoke_connected_app: "Every webhook whose URL the app set for you is
 * disabled"), but one written after its listing stayed enabled. The creation now looks at the
 * grant once its webhook is written (the disconnect's half: connected-app.e2e.test.ts).
 */
import { expect } from 'chai';
import { FailedPrecondition } from '../../../commands/shared/errors.js';
import { claimLeaseMs } from '../../../commands/shared/lease.js';
import { webhooksOfWorkspace } from '../../../projections/webhooks/index.js';
import { createWebhook, deleteWebhook } from '../../../src/feedback/actions/index.js';
import { createSecretBox } from '../../../src/webhooks/secrets.js';
import type { CommandContext } from '../../../src/write/command-handler.js';
import {
  countEvents,
  ctx,
  pausingBefore,
  SimulatedCrash,
  type World,
  withWorld,
} from './harness.js';
import { seedBoard } from './seed.js';

const secrets = createSecretBox('webhook-limit-races-secret-0123456789');
const MOST = 2;

function deps(world: World, commandHandler = world.handler, consent = true) {
  const policy = { allowPrivate: true };
  const consentHeld = async () => consent;
  const readStore = world.readStore;
  return { commandHandler, readStore, secrets, policy, maxPerWorkspace: MOST, consentHeld };
}

function create(world: World, workspaceId: string, context = ctx(), handler = world.handler) {
  return createWebhook(deps(world, handler), context, {
    workspaceId,
    url: `http://127.0.0.1:9/${context.now}`,
  });
}

/** The error a promise was refused with; null when it was kept. */
function outcome(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (error: unknown) => error,
  );
}

/** A handler whose first CreateWebhook fails, as a crash after the intent would. */
function crashingBeforeWebhook(world: World): World['handler'] {
  let armed = true;
  const crashing: World['handler'] = Object.create(world.handler);
  crashing.handle = (streamId, decider, command, context: CommandContext) => {
    if (armed && (command as { type: string }).type === 'CreateWebhook') {
      armed = false;
      throw new SimulatedCrash('crash before the webhook is written');
    }
    return world.handler.handle(streamId, decider, command, context);
  };
  return crashing;
}

describe('WEBHOOKS_PER_WORKSPACE under concurrent creations (integration)', function () {
  this.timeout(20_000);

  it('ten creations at once on an empty workspace make exactly the most it may have', () =>
    withWorld(async (world) => {
      const { workspaceId } = await seedBoard(world);
      const errors = await Promise.all(
        Array.from({ length: 10 }, () => outcome(create(world, workspaceId))),
      );
      expect(
        errors.filter((e) => e === null),
        'created',
      ).to.have.length(MOST);
      expect(
        errors.filter((e) => e instanceof FailedPrecondition),
        '409',
      ).to.have.length(8);
      await world.caughtUp();
      expect(await webhooksOfWorkspace(world.readStore, workspaceId)).to.have.length(MOST);
      expect(await countEvents(world.events, 'WebhookCreated')).to.equal(MOST);
    }));

  it('counts a creation on its way: intended, not written, not listed', () =>
    withWorld(async (world) => {
      const { workspaceId } = await seedBoard(world);
      await create(world, workspaceId);
      await world.caughtUp();
      let third: unknown = 'did not run';
      const second = pausingBefore(world.handler, /^webhook-/, 'CreateWebhook', async () => {
        third = await outcome(create(world, workspaceId));
      });
      await create(world, workspaceId, ctx(), second);
      expect(third, 'the creation counted while the second was on its way').to.be.instanceOf(
        FailedPrecondition,
      );
      await world.caughtUp();
      expect(await webhooksOfWorkspace(world.readStore, workspaceId)).to.have.length(MOST);
    }));

  it('a creation that crashed after its intent holds its place only for the lease', () =>
    withWorld(async (world) => {
      const { workspaceId } = await seedBoard(world);
      await create(world, workspaceId);
      const crashedAt = ctx();
      const crashed = outcome(create(world, workspaceId, crashedAt, crashingBeforeWebhook(world)));
      expect(await crashed).to.be.instanceOf(SimulatedCrash);
      await world.caughtUp();
      const soon = ctx({ now: crashedAt.now + claimLeaseMs - 1 });
      expect(await outcome(create(world, workspaceId, soon))).to.be.instanceOf(FailedPrecondition);
      const later = ctx({ now: crashedAt.now + claimLeaseMs });
      expect(await outcome(create(world, workspaceId, later))).to.equal(null);
    }));

  it('a webhook created and deleted within the lease leaves its place', () =>
    withWorld(async (world) => {
      const { workspaceId } = await seedBoard(world);
      const first = await create(world, workspaceId);
      await create(world, workspaceId);
      await deleteWebhook(deps(world), ctx(), { workspaceId, webhookId: first.webhookId });
      await world.caughtUp();
      // its intent is still recent: the roster names it, its stream says it is gone
      expect(await outcome(create(world, workspaceId))).to.equal(null);
    }));
});

describe('An OAuth app creating a webhook as the user disconnects it (integration)', () => {
  const grant = { userId: 'u1', clientId: 'zap' };
  const url = 'http://127.0.0.1:9/zap';

  it('disables the webhook it wrote when the grant ended meanwhile', () =>
    withWorld(async (world) => {
      const { workspaceId } = await seedBoard(world);
      const input = { workspaceId, url, grant };
      const late = await createWebhook(deps(world, world.handler, false), ctx(), input);
      await world.caughtUp(late.position);
      const [listed] = await webhooksOfWorkspace(world.readStore, workspaceId);
      expect(listed).to.include({ id: late.webhookId, enabled: false });
      expect(listed?.disabledReason).to.equal(
        "the OAuth app (client zap) that set its URL no longer holds the user's consent",
      );
    }));

  it('leaves it enabled while the grant holds', () =>
    withWorld(async (world) => {
      const { workspaceId } = await seedBoard(world);
      const held = await createWebhook(deps(world), ctx(), { workspaceId, url, grant });
      await world.caughtUp(held.position);
      const [listed] = await webhooksOfWorkspace(world.readStore, workspaceId);
      expect(listed).to.include({ id: held.webhookId, enabled: true });
    }));
});
