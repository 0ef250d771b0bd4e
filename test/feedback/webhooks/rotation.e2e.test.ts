/**
 * Issue 18: rotate_webhook_secret answers `{secret}`; "for 24 h deliveries carry signatures
 * with both the old and the new secret". "Must show": "Secret rotation: both signatures verify
 * during the overlap; the old one alone afterwards does not."
 */
import { expect } from 'chai';
import { WebhookVerificationError } from 'standardwebhooks';
import { verify } from './support/receiver.js';
import {
  HOUR,
  hook,
  type Receiver,
  startReceiver,
  startWorld,
  submit,
  subscribe,
  type World,
} from './support/world.js';

describe('Rotating a webhook’s signing secret (e2e)', () => {
  let world: World;
  let receiver: Receiver;
  let webhook: { id: string; secret: string };
  let rotated: string;

  before(async () => {
    world = await startWorld();
    receiver = await startReceiver();
    webhook = await subscribe(world, receiver);
    const res = await world.fb.api(world.owner.token).post(`${hook(webhook.id)}/rotate-secret`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('cache-control')).to.equal('no-store');
    rotated = res.body.secret;
  });
  after(async () => {
    await world.fb.stop();
    await receiver.close();
  });

  it('answers a new whsec_ secret', () => {
    expect(rotated).to.match(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(rotated).not.to.equal(webhook.secret);
  });

  describe('When a message is sent within 24 hours of the rotation', () => {
    it('carries two signatures, and each secret verifies it', async () => {
      await submit(world, 'During the overlap');
      const [request] = await receiver.until(1);
      expect(String(request!.headers['webhook-signature']).split(' ')).to.have.length(2);
      expect(verify(webhook.secret, request!).type).to.equal('item.created');
      expect(verify(rotated, request!).type).to.equal('item.created');
    });
  });

  describe('When a message is sent after the 24 hours', () => {
    it('is signed with the new secret only: the old one no longer verifies', async () => {
      world.fb.clock.advance(24 * HOUR + 60_000);
      await submit(world, 'After the overlap');
      const [, request] = await receiver.until(2);
      expect(String(request!.headers['webhook-signature']).split(' ')).to.have.length(1);
      expect(verify(rotated, request!).type).to.equal('item.created');
      expect(() => verify(webhook.secret, request!)).to.throw(WebhookVerificationError);
    });
  });
});
