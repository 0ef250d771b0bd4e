/**
 * A subscriber that registers its webhook through the hosted MCP server instead of REST. Spec
 * 000: "each operation id below is also the MCP tool name"; README (Webhooks): "The `secret` is
 * in that answer only: store it with your receiver", and a receiver verifies every request with
 * the `standardwebhooks` package. A keyed retry of the call (`_meta.idempotencyKey`) answers the
 * first webhook and secret, as REST's Idempotency-Key does. (Coverage: no MCP test made a webhook.)
 */
import { expect } from 'chai';
import { callTool, connectMcp } from '../../mcp/support.js';
import { verify } from './support/receiver.js';
import {
  hooks,
  type Receiver,
  startWorldWith,
  stopWorld,
  SLUG,
  submit,
  type World,
} from './support/world.js';

describe('When an assistant subscribes a receiver with the create_webhook tool (e2e)', () => {
  let world: World;
  let receiver: Receiver;
  before(async () => {
    [world, receiver] = await startWorldWith(1);
  });
  after(() => stopWorld(world, receiver));

  it('answers the secret once, the keyed retry the same, and the receiver verifies what it gets', async () => {
    const mcp = await connectMcp(`${world.fb.url}/mcp`, { token: world.owner.token });
    try {
      const args = { slug: SLUG, url: receiver.url, eventTypes: ['item.created'] };
      const meta = { idempotencyKey: 'subscribe-1' };
      const first = await callTool(mcp, 'create_webhook', args, meta);
      const retry = await callTool(mcp, 'create_webhook', args, meta);
      expect(first.isError, JSON.stringify(first.content)).to.not.equal(true);
      const made = first.structuredContent as { webhook: { id: string }; secret: string };
      expect(made.secret).to.match(/^whsec_/);
      expect(retry.structuredContent).to.deep.equal(first.structuredContent);
      const listed = await world.fb.api(world.owner.token).get(hooks());
      expect(listed.body.items.map((w: { id: string }) => w.id)).to.deep.equal([made.webhook.id]);

      const tested = await callTool(mcp, 'send_test_webhook', {
        slug: SLUG,
        webhookId: made.webhook.id,
      });
      expect(tested.isError, JSON.stringify(tested.content)).to.not.equal(true);
      const key = await submit(world, 'Filed after an assistant subscribed');
      const got = (await receiver.until(2)).map((request) => verify(made.secret, request));
      expect(got.map((m) => m.type).sort()).to.deep.equal(['item.created', 'webhook.test']);
      expect(got.find((m) => m.type === 'item.created').data.itemKey).to.equal(key);
    } finally {
      await mcp.close();
    }
  });
});
