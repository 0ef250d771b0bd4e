/**
 * README: the target "is checked at creation and again before every attempt". The check asks
 * DNS, and the name's DNS is the webhook owner's to run: a name server that never answers must
 * not hold a create_webhook request, nor a delivery attempt — its place in the webhook's lane
 * (WEBHOOK_CONCURRENCY) and the worker's stop, which waits for the attempts in flight — for
 * longer than the check's own bound (RESOLVE_TIMEOUT_MS, 10 s; shortened here). Before, a lookup
 * that never answered kept the attempt in flight forever: no attempt was ever recorded.
 */
import { expect } from 'chai';
import { eventually, hook, hooks, startWorld, type World } from './support/world.js';

/** the attacker's name server: answers a public address, or (once `hang`) nothing at all */
let hang = false;
const resolve = (host: string) =>
  hang || host === 'silent.example.test'
    ? new Promise<string[]>(() => {})
    : Promise.resolve(['93.184.216.34']);

/** the check's bound in this test (the service's default is 10 s) */
const RESOLVE_TIMEOUT_MS = 500;

describe('A webhook whose name server stops answering (e2e)', function () {
  this.timeout(20_000);
  let world: World;
  before(async () => {
    world = await startWorld({ webhooks: { resolve, resolveTimeoutMs: RESOLVE_TIMEOUT_MS } });
  });
  after(() => world.fb.stop());

  it('refuses the creation once the lookup has taken RESOLVE_TIMEOUT_MS', async () => {
    const api = world.fb.api(world.owner.token);
    const started = Date.now();
    const res = await api.post(hooks(), { url: 'https://silent.example.test/hooks' });
    expect(res.status).to.equal(400);
    expect(res.body.error).to.match(/did not resolve within/);
    expect(Date.now() - started).to.be.below(RESOLVE_TIMEOUT_MS + 2_000);
  });

  it('records the attempt as failed once the lookup has taken RESOLVE_TIMEOUT_MS', async () => {
    const api = world.fb.api(world.owner.token);
    const created = await api.post(hooks(), { url: 'https://attacker.example.test/hooks' });
    expect(created.status).to.equal(200);
    hang = true;
    const id = created.body.webhook.id;
    const sent = await api.post(`${hook(id)}/test`);
    expect(sent.status).to.equal(200);
    const detail = await eventually(
      async () => {
        const { body } = await api.get(`${hook(id)}/deliveries/${sent.body.deliveryId}`);
        return body.attempts?.length > 0 && body;
      },
      'the attempt to be recorded',
      RESOLVE_TIMEOUT_MS + 5_000,
    );
    expect(detail.attempts[0]).to.include({ status: 'failed', responseStatus: null });
    expect(detail.attempts[0].error).to.match(/attacker\.example\.test did not resolve within/);
  });
});
