import { expect } from 'chai';
import { InvalidArgument, NotFound } from '../../../commands/shared/errors.js';
import { type WebhookEvent, webhookDecider } from '../../../commands/webhook/index.js';
import { deciderSpec } from '../../support/decider.js';

const given = deciderSpec(webhookDecider);
const data = {
  webhookId: 'wh_1',
  workspaceId: 'ws1',
  url: 'https://hooks.example.com/in',
  description: 'CRM',
  eventTypes: null,
  productKeys: null,
  secret: 'v1.sealed',
};
const created: WebhookEvent = { type: 'WebhookCreated', data };
const update = (d: Record<string, unknown>) => ({ type: 'UpdateWebhook', data: d }) as const;
const disabledBy = (reason: string | null): WebhookEvent => ({
  type: 'WebhookDisabled',
  data: { reason },
});
const deleted: WebhookEvent = { type: 'WebhookDeleted', data: {} };

describe('When a webhook is created', () => {
  it('records it with its filters sorted and without repeats', () => {
    given([])
      .when({
        type: 'CreateWebhook',
        data: {
          ...data,
          description: '  CRM ',
          eventTypes: ['item.replied', 'item.created', 'item.replied'],
        },
      })
      .then([
        { type: 'WebhookCreated', data: { ...data, eventTypes: ['item.created', 'item.replied'] } },
      ]);
  });
  it('refuses a description over 200 characters and empty filters', () => {
    // issue 18: "description? (≤ 200)"
    given([])
      .when({ type: 'CreateWebhook', data: { ...data, description: 'x'.repeat(201) } })
      .thenThrows(InvalidArgument);
    given([])
      .when({ type: 'CreateWebhook', data: { ...data, eventTypes: [] } })
      .thenThrows(InvalidArgument);
    given([])
      .when({ type: 'CreateWebhook', data: { ...data, productKeys: [] } })
      .thenThrows(InvalidArgument);
  });
});

describe('When a webhook is updated', () => {
  it('records only what changed', () => {
    given([created])
      .when(update({ url: data.url, description: 'Sales', eventTypes: null }))
      .then([{ type: 'WebhookUpdated', data: { description: 'Sales' } }]);
    given([created])
      .when(update({ url: data.url }))
      .then([]);
    const filtered: WebhookEvent = {
      type: 'WebhookCreated',
      data: { ...data, eventTypes: ['item.created', 'item.replied'], productKeys: ['API', 'WEB'] },
    };
    // the same filters, in another order and with a repeat, are no change
    given([filtered])
      .when(
        update({
          eventTypes: ['item.replied', 'item.created'],
          productKeys: ['WEB', 'API', 'WEB'],
        }),
      )
      .then([]);
  });
  it('records whose grant set a new URL: an app’s, and the maker’s own (null) once it had one', () => {
    // a disconnected app's webhooks are disabled (revoke_connected_app): only while its URL is
    // still the one the app chose
    const grant = { userId: 'u1', clientId: 'client-1' };
    const other = 'https://hooks.example.com/other';
    given([created])
      .when(update({ url: other, grant }))
      .then([{ type: 'WebhookUpdated', data: { url: other, grant } }]);
    given([{ type: 'WebhookCreated', data: { ...data, grant } }])
      .when(update({ url: other, grant: null }))
      .then([{ type: 'WebhookUpdated', data: { url: other, grant: null } }]);
    // nothing to record: no grant before or after, or the URL did not change
    given([created])
      .when(update({ url: other, grant: null }))
      .then([{ type: 'WebhookUpdated', data: { url: other } }]);
    given([created])
      .when(update({ url: data.url, grant }))
      .then([]);
  });

  it('disables it for an admin with no reason, and enabling resumes it', () => {
    given([created])
      .when(update({ enabled: false }))
      .then([disabledBy(null)]);
    given([created])
      .when(update({ enabled: true }))
      .then([]);
    given([created, disabledBy('410 Gone')])
      .when(update({ enabled: true }))
      .then([{ type: 'WebhookEnabled', data: {} }]);
    given([created, disabledBy('410 Gone')])
      .when(update({ enabled: true }))
      .thenState((state) => expect(state.status).to.equal('enabled'));
  });
  it('lets the service disable it once, with its reason', () => {
    const disable = { type: 'DisableWebhook', data: { reason: '410 Gone' } } as const;
    given([created])
      .when(disable)
      .then([disabledBy('410 Gone')]);
    given([created, disabledBy('410 Gone')])
      .when(disable)
      .then([]);
  });
  // README: an attempt under way as the URL was replaced "counts for neither the failures nor
  // disabling": the worker names the URL its attempts failed at, and a URL set since stays on
  it('does not disable it for failures at a URL it no longer has', () => {
    const at = (ifUrl: string) =>
      ({ type: 'DisableWebhook', data: { reason: '410 Gone', ifUrl } }) as const;
    const moved: WebhookEvent = {
      type: 'WebhookUpdated',
      data: { url: 'https://hooks.example.com/moved' },
    };
    given([created, moved]).when(at(data.url)).then([]);
    given([created, moved])
      .when(at('https://hooks.example.com/moved'))
      .then([disabledBy('410 Gone')]);
  });
});

describe('When a webhook secret is rotated', () => {
  // README: `webhook-signature` carries "two of them, space-separated, for 24 hours after a
  // secret rotation": the new secret and the one it replaced, never one from before that.
  it('keeps only the secret it replaced, with its deadline; older ones are retired at once', () => {
    const rotate = (secret: string, until: number) =>
      ({ type: 'RotateWebhookSecret', data: { secret, previousValidUntil: until } }) as const;
    const rotated = (secret: string, until: number): WebhookEvent => ({
      type: 'WebhookSecretRotated',
      data: { secret, previousValidUntil: until },
    });
    given([created])
      .when(rotate('v1.new', 100))
      .then([rotated('v1.new', 100)]);
    // a log written while three replaced secrets were kept replays to the same single one
    given([created, rotated('a', 1), rotated('b', 2), rotated('c', 3)])
      .when(rotate('d', 4))
      .thenState((state) => {
        if (state.status !== 'enabled') throw new Error('expected enabled');
        expect(state.secret).to.equal('d');
        expect(state.previousSecrets).to.deep.equal([{ secret: 'c', validUntil: 4 }]);
      });
  });
});

describe('When a webhook is deleted', () => {
  it('answers not found to everything afterwards', () => {
    given([created]).when({ type: 'DeleteWebhook', data: {} }).then([deleted]);
    given([created, deleted]).when({ type: 'DeleteWebhook', data: {} }).thenThrows(NotFound);
    given([created, deleted])
      .when(update({ enabled: true }))
      .thenThrows(NotFound);
    given([])
      .when(update({ description: 'x' }))
      .thenThrows(NotFound);
  });
});
