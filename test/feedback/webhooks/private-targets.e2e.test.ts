/**
 * Issue 18, "No SSRF": "refuse targets that resolve to loopback, private, link-local, CGNAT,
 * multicast or metadata addresses — at creation and again at each delivery after DNS
 * resolution (connect to the address checked, so rebinding cannot switch it); never follow
 * redirects. A setting (WEBHOOK_ALLOW_PRIVATE_TARGETS=true) allows them."
 * "Must show": "Private targets refused (literal IPs, a hostname resolving to 127.0.0.1, an IPv6
 * loopback, `http://[::ffff:127.0.0.1]`), unless the setting allows them."
 * The attack on the deprecated IPv4-compatible range ::/96: `https://[::127.0.0.1]/`,
 * `https://[::a9fe:a9fe]/` (169.254.169.254) and the like were accepted and attempted.
 */
import { expect } from 'chai';
import {
  expectError,
  eventually,
  hook,
  hooks,
  type Receiver,
  startReceiver,
  startWorld,
  submit,
  type World,
} from './support/world.js';

/** Names the tests resolve themselves; nothing here ever connects beyond 127.0.0.1. */
const names = new Map<string, string[]>([
  ['intranet.example.test', ['10.1.2.3']],
  ['metadata.example.test', ['169.254.169.254']],
  ['mixed.example.test', ['93.184.216.34', '127.0.0.1']],
  ['compatible.example.test', ['::7f00:1']],
]);

/** IPv4-compatible IPv6 (::/96): loopback, private, metadata and even public IPv4 inside. */
const IPV4_COMPATIBLE = [
  'https://[::127.0.0.1]/',
  'https://[::7f00:1]:9443/',
  'https://[::10.0.0.1]/',
  'https://[::a9fe:a9fe]/',
  'https://[::8.8.8.8]/',
  'https://compatible.example.test/',
];
const resolve = async (host: string) => {
  const found = names.get(host);
  if (!found) throw new Error('ENOTFOUND');
  return found;
};

describe('Webhook targets (e2e)', () => {
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver.close());

  describe('When private targets are not allowed (the default)', () => {
    let world: World;
    before(async () => {
      world = await startWorld({
        env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' },
        webhooks: { resolve },
      });
    });
    after(() => world.fb.stop());

    it('refuses loopback, private, link-local, CGNAT, multicast and metadata targets with 400', async () => {
      const refused = [
        `https://127.0.0.1:${receiver.port}/hooks`,
        'https://127.1.2.3/hooks',
        'https://2130706433/hooks', // 127.0.0.1 as one number
        'https://10.0.0.7/hooks',
        'https://172.16.5.4/hooks',
        'https://192.168.1.1/hooks',
        'https://169.254.169.254/latest/meta-data',
        'https://100.64.0.1/hooks',
        'https://224.0.0.1/hooks',
        'https://0.0.0.0/hooks',
        'https://[::1]/hooks',
        'https://[::ffff:127.0.0.1]/hooks',
        'http://[::ffff:127.0.0.1]/hooks',
        'https://[fe80::1]/hooks',
        'https://[fd00:ec2::254]/hooks',
        'https://localhost/hooks', // a host name resolving to 127.0.0.1
        'https://intranet.example.test/hooks',
        'https://metadata.example.test/hooks',
        'https://mixed.example.test/hooks', // one private address among public ones is enough
        'https://nowhere.example.test/hooks', // does not resolve
        `http://127.0.0.1:${receiver.port}/hooks`,
      ];
      const api = world.fb.api(world.owner.token);
      for (const url of refused) {
        const res = await api.post(hooks(), { url });
        expectError(res, 400, 'invalid-argument');
      }
      const loopback = await api.post(hooks(), { url: 'https://[::1]/hooks' });
      expect(loopback.body.error).to.match(/loopback/);
      const metadata = await api.post(hooks(), { url: 'https://169.254.169.254/' });
      expect(metadata.body.error).to.match(/a cloud metadata address/);
      expect((await api.get(hooks())).body.items).to.deep.equal([]);
    });

    it('refuses an update to a private target too', async () => {
      names.set('public.example.test', ['93.184.216.34']);
      const api = world.fb.api(world.owner.token);
      const created = await api.post(hooks(), { url: 'https://public.example.test/hooks' });
      expect(created.status).to.equal(200);
      const id = created.body.webhook.id;
      expectError(await api.patch(hook(id), { url: 'https://[::1]/' }), 400, 'invalid-argument');
      await api.del(hook(id));
    });

    it('refuses the IPv4-compatible range ::/96 at creation and on update', async () => {
      names.set('public.example.test', ['93.184.216.34']);
      const api = world.fb.api(world.owner.token);
      const created = await api.post(hooks(), { url: 'https://public.example.test/hooks' });
      expect(created.status).to.equal(200);
      const id = created.body.webhook.id;
      for (const url of IPV4_COMPATIBLE) {
        const res = await api.post(hooks(), { url });
        expectError(res, 400, 'invalid-argument');
        expect(res.body.error, url).to.match(/IPv4-compatible/);
        expectError(await api.patch(hook(id), { url }), 400, 'invalid-argument');
      }
      expect((await api.get(hook(id))).body.webhook.url).to.equal(
        'https://public.example.test/hooks',
      );
      await api.del(hook(id));
    });

    it('accepts an IPv6 form of a public IPv4 address (NAT64, 6to4), refuses one of a private address', async () => {
      // README: "nor to an IPv6 form embedding an IPv4 one unless that one is public (mapped,
      // NAT64, 6to4, Teredo …)"; behind DNS64 every IPv4-only receiver resolves into 64:ff9b::/96
      names.set('dns64.example.test', ['64:ff9b::5db8:d822']); // 93.184.216.34
      const api = world.fb.api(world.owner.token);
      const accepted = [
        'https://dns64.example.test/hooks',
        'https://[64:ff9b::808:808]/hooks',
        'https://[2002:808:808::1]/hooks',
      ];
      for (const url of accepted) {
        const created = await api.post(hooks(), { url });
        expect(created.status, `${url}: ${JSON.stringify(created.body)}`).to.equal(200);
        await api.del(hook(created.body.webhook.id)); // nothing is ever sent there
      }
      const refused = await api.post(hooks(), { url: 'https://[64:ff9b::7f00:1]/hooks' });
      expectError(refused, 400, 'invalid-argument');
      expect(refused.body.error).to.match(/loopback/);
      const sixToFour = await api.post(hooks(), { url: 'https://[2002:a00:1::1]/hooks' });
      expectError(sixToFour, 400, 'invalid-argument');
      expect(sixToFour.body.error).to.match(/private/);
    });

    it('checks again at delivery: a name that now resolves to 127.0.0.1 gets nothing', async () => {
      names.set('rebinding.example.test', ['93.184.216.34']);
      const api = world.fb.api(world.owner.token);
      const created = await api.post(hooks(), {
        url: `https://rebinding.example.test:${receiver.port}/hooks`,
      });
      expect(created.status).to.equal(200);
      // the attacker's DNS now answers with the service's own machine
      names.set('rebinding.example.test', ['127.0.0.1']);
      await submit(world, 'Rebinding attempt');
      const path = `${hook(created.body.webhook.id)}/deliveries`;
      const [delivery] = await eventually(async () => {
        const items = (await api.get(path)).body.items;
        return items.length > 0 && items[0].attemptCount > 0 && items;
      }, 'the first attempt');
      const detail = (await api.get(`${path}/${delivery.id}`)).body;
      expect(detail.attempts[0]).to.include({ status: 'failed', responseStatus: null });
      expect(detail.attempts[0].error).to.match(/loopback/);
      expect(receiver.received).to.have.length(0);
    });

    it('checks again at delivery: a name that now resolves into ::/96 gets nothing', async () => {
      names.set('rebinding-compatible.example.test', ['93.184.216.34']);
      const api = world.fb.api(world.owner.token);
      const created = await api.post(hooks(), {
        url: `https://rebinding-compatible.example.test:${receiver.port}/hooks`,
      });
      expect(created.status).to.equal(200);
      names.set('rebinding-compatible.example.test', ['::7f00:1']); // ::127.0.0.1
      const path = `${hook(created.body.webhook.id)}/deliveries`;
      const sent = await api.post(`${hook(created.body.webhook.id)}/test`);
      expect(sent.status).to.equal(200);
      const detail = await eventually(async () => {
        const { body } = await api.get(`${path}/${sent.body.deliveryId}`);
        return body.attempts?.length > 0 && body;
      }, 'the first attempt');
      expect(detail.attempts[0]).to.include({ status: 'failed', responseStatus: null });
      expect(detail.attempts[0].error).to.match(/IPv4-compatible/);
      await api.del(hook(created.body.webhook.id));
    });
  });

  describe('When WEBHOOK_ALLOW_PRIVATE_TARGETS=true (local development, tests)', () => {
    let world: World;
    before(async () => {
      world = await startWorld({ webhooks: { resolve } });
    });
    after(() => world.fb.stop());

    it('accepts loopback targets, over http too', async () => {
      const api = world.fb.api(world.owner.token);
      for (const url of [
        receiver.url,
        `http://[::1]:${receiver.port}/hooks`,
        `https://intranet.example.test/hooks`,
      ]) {
        expect((await api.post(hooks(), { url })).status, url).to.equal(200);
      }
    });

    it('still wants https for anything but a loopback receiver', async () => {
      names.set('public.example.test', ['93.184.216.34']);
      const api = world.fb.api(world.owner.token);
      expectError(
        await api.post(hooks(), { url: 'http://public.example.test/hooks' }),
        400,
        'invalid-argument',
      );
      // every address must be loopback: this name's first, the one called, is public
      for (const url of ['http://intranet.example.test/hooks', 'http://mixed.example.test/hooks']) {
        expectError(await api.post(hooks(), { url }), 400, 'invalid-argument');
      }
    });
  });

  describe('When a receiver answers with a redirect', () => {
    let world: World;
    before(async () => {
      world = await startWorld();
    });
    after(() => world.fb.stop());

    it('does not follow it: the attempt failed with the 3xx status', async () => {
      const target = await startReceiver();
      receiver.answer = () => ({ status: 204 });
      target.answer = () => ({ status: 307, headers: { location: receiver.url } });
      const before = receiver.received.length;
      try {
        const api = world.fb.api(world.owner.token);
        const created = await api.post(hooks(), { url: target.url });
        await submit(world, 'Redirect me');
        await target.until(1);
        const path = `${hook(created.body.webhook.id)}/deliveries`;
        const [delivery] = await eventually(async () => {
          const items = (await api.get(path)).body.items;
          return items.length > 0 && items[0].attemptCount > 0 && items;
        }, 'the first attempt');
        expect(delivery).to.include({ status: 'pending', lastResponseStatus: 307 });
        expect(receiver.received).to.have.length(before);
      } finally {
        await target.close();
      }
    });
  });
});
