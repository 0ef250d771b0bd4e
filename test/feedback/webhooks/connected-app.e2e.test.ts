/**
 * Webhooks an OAuth app set up, and the user disconnecting the app (revoke_connected_app), with
 * an access token from the real authorization-code flow.
 *
 * The rule: a receiver the app chose must not outlive the user's consent. Disconnecting the app
 * disables every webhook whose URL the app set under that user's grant ("Every webhook whose URL
 * the app set for you is disabled, with `disabledReason` naming the app; an admin may resume
 * it"); webhooks whose URL the maker set with their own credential keep delivering.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { webhookDecider, webhookStreamId } from '../../../commands/webhook/index.js';
import { openEmbeddedEventStore } from '../../../src/eventstore/embedded/index.js';
import { createSecretBox } from '../../../src/webhooks/secrets.js';
import { createCommandHandler } from '../../../src/write/command-handler.js';
import { connectClient, oidc } from '../support/oauth.js';
import {
  eventually,
  hook,
  hooks,
  type Receiver,
  settle,
  startReceiver,
  startWorldWith,
  stopWorld,
  submit,
  subscribe,
  type World,
} from './support/world.js';

describe('Webhooks set up by a connected OAuth app (e2e)', function () {
  this.timeout(60_000);
  let world: World;
  let app: Receiver;
  let own: Receiver;

  before(async () => {
    [world, app, own] = await startWorldWith(2);
  });
  after(() => stopWorld(world, app, own));
  const asOwner = () => world.fb.api(world.owner.token);
  const disconnect = (clientId: string) => asOwner().del(`/v1/me/apps/${clientId}`);
  const webhook = async (id: string) => (await asOwner().get(hook(id))).body.webhook;
  /** the app's webhook, written by another API process: this one's read models lag it */
  const writeElsewhere = async (webhookId: string, grant: { userId: string; clientId: string }) => {
    const file = join(world.fb.runtime.dir, 'store.sqlite');
    const log = await openEmbeddedEventStore({ path: file });
    const elsewhere = createCommandHandler(log);
    const data = {
      webhookId,
      workspaceId: world.ws.workspaceId,
      url: app.url,
      description: '',
      eventTypes: null,
      productKeys: null,
      grant,
      secret: createSecretBox('another-process-secret-0123456789').seal('whsec_x', webhookId),
    };
    const stream = webhookStreamId(world.ws.workspaceId, webhookId);
    const context = world.fb.context({ actor: grant.userId });
    await elsewhere.handle(stream, webhookDecider, { type: 'CreateWebhook', data }, context);
    await log.close();
  };

  describe('When the admin disconnects the app', () => {
    it('disables the webhooks whose URL the app set, and only those', async () => {
      const zap = await connectClient(world.fb, { email: world.owner.email, name: 'Zap Sync' });
      const asApp = world.fb.api(zap.accessToken);
      const created = await asApp.post(hooks(), { url: app.url });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      // the admin's own webhook, which the app then points at its receiver
      const retargeted = await subscribe(world, own);
      expect((await asApp.patch(hook(retargeted.id), { url: app.url })).status).to.equal(200);
      // the app's webhook, which the admin then points at their own receiver
      const reclaimed = await asApp.post(hooks(), { url: app.url });
      expect(
        (await asOwner().patch(hook(reclaimed.body.webhook.id), { url: own.url })).status,
      ).to.equal(200);
      const admins = await subscribe(world, own);

      expect((await disconnect(zap.clientId)).status).to.equal(204);

      for (const id of [created.body.webhook.id, retargeted.id]) {
        expect(await webhook(id)).to.include({
          enabled: false,
          disabledReason: 'the OAuth app "Zap Sync" that set its URL was disconnected',
        });
      }
      for (const id of [reclaimed.body.webhook.id, admins.id]) {
        expect(await webhook(id)).to.include({ enabled: true, disabledReason: null });
      }
      // the app's token stopped with its grant: it cannot resume what was disabled
      const resumed = await asApp.patch(hook(retargeted.id), { enabled: true });
      expect(resumed.status).to.equal(401);

      const before = app.received.length;
      await submit(world, 'Export to CSV, please');
      await own.until(2); // the two webhooks pointing at the admin's receiver
      await settle(world, created.body.webhook.id);
      expect(app.received.length, 'nothing more reaches the app').to.equal(before);

      // an admin may resume one on purpose: its messages since then follow
      expect(
        (await asOwner().patch(hook(created.body.webhook.id), { enabled: true })).status,
      ).to.equal(200);
      await eventually(async () => app.received.length > before, 'the resumed webhook to deliver');
    });

    it('stops a webhook whose app ended its own grant, and an admin who resumes it owns it', async () => {
      // security audit: an app revoked its own refresh token (RFC 7009), left the user's
      // connected apps, and its receiver kept getting every message — nothing was left for the
      // user to disconnect. Consent ends with the grant, however the grant ends.
      const sly = await connectClient(world.fb, { email: world.owner.email, name: 'Sly Sync' });
      // a receiver of its own: the app's other webhooks above were resumed and still deliver
      const exfil = await startReceiver();
      try {
        const created = await world.fb.api(sly.accessToken).post(hooks(), { url: exfil.url });
        expect(created.status, JSON.stringify(created.body)).to.equal(200);
        const id = created.body.webhook.id as string;
        await oidc.tokenRevocation(sly.config, sly.refreshToken);
        const apps = (await asOwner().get('/v1/me/apps')).body.apps as { clientId: string }[];
        expect(apps.map((a) => a.clientId)).not.to.include(sly.clientId);

        await submit(world, 'Dark mode for the reports page');
        const stopped = await eventually(async () => {
          const now = await webhook(id);
          return now.enabled === false && now;
        }, 'the webhook to be disabled');
        expect(stopped.disabledReason).to.equal(
          `the OAuth app (client ${sly.clientId}) that set its URL no longer holds the user's consent`,
        );
        await settle(world, id);
        expect(exfil.received, 'nothing reaches the app').to.deep.equal([]);

        // resuming on purpose puts the webhook under the admin's own consent: the held message goes
        expect((await asOwner().patch(hook(id), { enabled: true })).status).to.equal(200);
        await exfil.until(1);
        expect(await webhook(id)).to.include({ enabled: true });
      } finally {
        await exfil.close();
      }
    });

    it('answers a repeat 204 once neither a grant nor a webhook of the app is left', async () => {
      // a retry after a lost answer is no error (connected-app-repeat.e2e); a client id no app
      // has is 404
      const zap = await connectClient(world.fb, { email: world.owner.email, name: 'Zap Twice' });
      expect((await disconnect(zap.clientId)).status).to.equal(204);
      expect((await disconnect(zap.clientId)).status).to.equal(204);
      const unknown = await disconnect('no-such-app');
      expect(unknown.status).to.equal(404);
      expect(unknown.body.code).to.equal('not-found');
    });

    it('also disables a webhook the app wrote as the disconnect began, before the read models list it', async () => {
      // concurrency audit: a webhook the app created while being disconnected stayed listed
      // enabled (written after the disconnect's request was authenticated, and so caught up,
      // but before its listing ran)
      const zap = await connectClient(world.fb, { email: world.owner.email, name: 'Zap Race' });
      const webhookId = `wh_${'e1'.repeat(16)}`;
      const { auth } = world.fb.app();
      const revoke = auth.revokeConnectedApp;
      auth.revokeConnectedApp = async (userId, clientId) => {
        await writeElsewhere(webhookId, { userId, clientId });
        return revoke(userId, clientId);
      };
      try {
        expect((await disconnect(zap.clientId)).status).to.equal(204);
      } finally {
        auth.revokeConnectedApp = revoke;
      }
      expect(await webhook(webhookId)).to.include({
        enabled: false,
        disabledReason: 'the OAuth app "Zap Race" that set its URL was disconnected',
      });
    });
  });
});
