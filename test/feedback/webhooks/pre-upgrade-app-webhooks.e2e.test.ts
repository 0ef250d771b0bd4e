/**
 * Webhooks an OAuth app set up under a version older than 2026-11-26's, whose events carry no
 * `grant` (the app that set the URL is named only in the attribution label, `api:<client name>`),
 * and the user disconnecting that app after the upgrade.
 *
 * README, Security: "disconnecting an app disables every webhook whose URL it set for you", and
 * the upgrade paragraph: what it set before the upgrade is known by the app's name. Found by the
 * upgrade audit of 87af079: such a webhook kept delivering to the app after its disconnection.
 */
import { expect } from 'chai';
import { webhookStreamId } from '../../../commands/webhook/index.js';
import { createSecretBox } from '../../../src/webhooks/secrets.js';
import { connectClient } from '../support/oauth.js';
import { hook, type Receiver, startWorldWith, stopWorld, type World } from './support/world.js';

describe('When an app connected before the upgrade set a webhook and is disconnected after it (e2e)', function () {
  this.timeout(60_000);
  let world: World;
  let receiver: Receiver;

  before(async () => {
    [world, receiver] = await startWorldWith(1);
  });
  after(() => stopWorld(world, receiver));

  /** A WebhookCreated as a version before `grant` wrote it, straight into the log. */
  async function storeOldWebhookCreated(webhookId: string, via: string) {
    const { stores } = world.fb.runtime.runtime;
    const data = {
      webhookId,
      workspaceId: world.ws.workspaceId,
      url: receiver.url,
      description: via,
      eventTypes: null,
      productKeys: null,
      secret: createSecretBox('an-older-version-secret-0123456789').seal('whsec_x', webhookId),
    };
    const metadata = {
      actor: world.owner.userId,
      via,
      occurredAt: world.fb.clock.now(),
      correlationId: `old-${webhookId}`,
      causationId: null,
    };
    await stores.rawEventStore.appendToStream(
      webhookStreamId(world.ws.workspaceId, webhookId),
      [{ type: 'WebhookCreated', data, metadata }],
      { expectedRevision: 'no_stream' },
    );
  }

  const SET_BY_OLD_ZAP = `wh_${'a'.repeat(32)}`;
  const SET_BY_THE_MAKER = `wh_${'b'.repeat(32)}`;
  const SET_BY_ANOTHER_APP = `wh_${'c'.repeat(32)}`;

  it("disables the webhook the app set (known by the app's name), not the maker's own", async () => {
    const app = await connectClient(world.fb, { email: world.owner.email, name: 'Old Zap' });
    await storeOldWebhookCreated(SET_BY_OLD_ZAP, 'api:Old Zap');
    await storeOldWebhookCreated(SET_BY_THE_MAKER, 'pat:laptop');
    await storeOldWebhookCreated(SET_BY_ANOTHER_APP, 'api:Other Sync');
    await world.fb.caughtUp();
    const owner = world.fb.api(world.owner.token);

    expect((await owner.del(`/v1/me/apps/${app.clientId}`)).status).to.equal(204);

    const webhook = async (id: string) => (await owner.get(hook(id))).body.webhook;
    expect(await webhook(SET_BY_OLD_ZAP)).to.include({
      enabled: false,
      disabledReason: 'the OAuth app "Old Zap" that set its URL was disconnected',
    });
    for (const id of [SET_BY_THE_MAKER, SET_BY_ANOTHER_APP]) {
      expect(await webhook(id), id).to.include({ enabled: true, disabledReason: null });
    }
  });
});
