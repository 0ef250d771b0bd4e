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
import { connectClient, oidc } from '../support/oauth.js';
import {
  eventually,
  hook,
  type Receiver,
  settle,
  startWorldWith,
  stopWorld,
  submit,
  type World,
} from './support/world.js';

describe('When an OAuth app set a webhook before the upgrade, in events without its grant (e2e)', function () {
  this.timeout(60_000);
  let world: World;
  let receiver: Receiver;

  before(async () => {
    [world, receiver] = await startWorldWith(1);
  });
  after(() => stopWorld(world, receiver));

  /** A WebhookCreated as a version before `grant` wrote it, straight into the log. */
  async function storeOldWebhookCreated(webhookId: string, via: string, path = '') {
    const { stores, context } = world.fb.runtime.runtime;
    const data = {
      webhookId,
      workspaceId: world.ws.workspaceId,
      url: `${receiver.url}${path}`,
      description: via,
      eventTypes: null,
      productKeys: null,
      secret: createSecretBox(context.secret).seal(`whsec_${'x'.repeat(32)}`, webhookId),
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

  it('stops the webhook of an app that ended its own grant, and keeps delivering for one that holds it', async () => {
    // README, Security: "the webhook worker stops one whose app no longer holds your grant however
    // the grant ended"; before the upgrade the app is known by its name only
    const sly = await connectClient(world.fb, { email: world.owner.email, name: 'Sly Old' });
    await connectClient(world.fb, { email: world.owner.email, name: 'Kept Old' });
    const slyHook = `wh_${'d'.repeat(32)}`;
    const keptHook = `wh_${'e'.repeat(32)}`;
    await storeOldWebhookCreated(slyHook, 'api:Sly Old', '/sly');
    await storeOldWebhookCreated(keptHook, 'api:Kept Old', '/kept');
    await world.fb.caughtUp();
    await oidc.tokenRevocation(sly.config, sly.refreshToken);

    await submit(world, 'Dark mode for the reports page');
    await eventually(
      async () => receiver.received.some((r) => r.path.endsWith('/kept')),
      'the webhook of the app that holds its grant to deliver',
    );
    const owner = world.fb.api(world.owner.token);
    const stopped = await eventually(async () => {
      const now = (await owner.get(hook(slyHook))).body.webhook;
      return now.enabled === false && now;
    }, 'the webhook of the app that ended its grant to be disabled');
    expect(stopped.disabledReason).to.equal(
      `the OAuth app "Sly Old" that set its URL no longer holds the user's consent`,
    );
    await settle(world, slyHook);
    expect(receiver.received.filter((r) => r.path.endsWith('/sly'))).to.deep.equal([]);
    expect((await owner.get(hook(keptHook))).body.webhook).to.include({ enabled: true });
  });
});
