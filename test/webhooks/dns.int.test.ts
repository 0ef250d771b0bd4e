/**
 * src/webhooks/delivery/dns.ts: a public webhook target's name is asked of DNS itself (c-ares),
 * not of the system resolver, whose getaddrinfo calls libuv runs at most two at a time: the
 * name's DNS is the webhook owner's to run, and a few names whose server never answers must not
 * make every other name wait behind them.
 */
import { expect } from 'chai';
import { askDns, defaultResolve, systemResolve } from '../../src/webhooks/delivery/dns.js';
import { checkTarget } from '../../src/webhooks/delivery/target.js';
import { type NameServer, startNameServer } from './support/name-server.js';

describe('Webhook target names asked of DNS (c-ares)', () => {
  let server: NameServer;
  before(async () => {
    server = await startNameServer();
  });
  after(() => server.close());
  beforeEach(() => {
    server.asked.length = 0;
    server.silent.clear();
    server.records.clear();
  });

  it("answers every A and AAAA record the name's server gives, IPv4 first", async () => {
    server.records.set('hooks.example.test', ['2606:2800:220:1::1', '93.184.216.34']);
    const resolve = askDns({ servers: [server.address] });
    expect(await resolve('hooks.example.test')).to.deep.equal([
      '93.184.216.34',
      '2606:2800:220:1::1',
    ]);
    expect(server.asked).to.have.members(['hooks.example.test A', 'hooks.example.test AAAA']);
  });

  it('refuses a name its server does not know, and checks what a known one resolves to', async () => {
    server.records.set('inside.example.test', ['10.0.0.7']);
    const resolve = askDns({ servers: [server.address] });
    const policy = { allowPrivate: false, resolve };
    expect(await refusal(checkTarget('https://nowhere.example.test/hooks', policy))).to.equal(
      'nowhere.example.test does not resolve',
    );
    expect(await refusal(checkTarget('https://inside.example.test/hooks', policy))).to.equal(
      'url points to a private address: inside.example.test (10.0.0.7)',
    );
  });

  it('answers a name while eight others wait on a server that never answers', async () => {
    server.records.set('quick.example.test', ['93.184.216.34']);
    const resolve = askDns({ servers: [server.address], timeoutMs: 1_500, tries: 1 });
    // more than libuv would run at once through getaddrinfo (two of its four pool threads)
    const silent = Array.from({ length: 8 }, (_, n) => `silent-${n}.example.test`);
    for (const name of silent) server.silent.add(name);
    const waiting = silent.map((name) =>
      resolve(name).then(
        () => 'answered',
        () => 'gave up',
      ),
    );
    await waitFor(() => server.asked.length >= 8);
    const quick = resolve('quick.example.test').then((addresses) => addresses.join());
    expect(await Promise.race([quick, ...waiting]), 'the first to finish').to.equal(
      '93.184.216.34',
    );
    expect(await Promise.all(waiting)).to.deep.equal(Array(8).fill('gave up'));
  });

  it('is how a public target is resolved; the system resolver only where private targets are allowed', () => {
    expect(defaultResolve(false)).to.not.equal(systemResolve);
    expect(defaultResolve(false), 'one resolver for the process').to.equal(defaultResolve(false));
    expect(defaultResolve(true)).to.equal(systemResolve);
  });
});

const refusal = (check: Promise<unknown>) =>
  check.then(
    () => 'accepted',
    (error: Error) => error.message,
  );

async function waitFor(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  expect(check(), 'the name server to be asked').to.equal(true);
}
