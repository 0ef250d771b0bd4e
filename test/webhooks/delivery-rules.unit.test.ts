/**
 * Issue 18, "Delivery": "Retry schedule after a failure (non-2xx, timeout 15 s, connection
 * error): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (Svix's). `429`/`503` with `Retry-After` wait
 * at least that long. `410 Gone` disables the webhook." And "No SSRF": the address ranges.
 */
import { expect } from 'chai';
import {
  ATTEMPT_TIMEOUT_MS,
  MAX_ATTEMPTS,
  nextAttemptAt,
  parseRetryAfter,
  verdictOf,
} from '../../src/webhooks/delivery/schedule.js';
import { addressRange, checkTarget, RefusedTarget } from '../../src/webhooks/delivery/target.js';
import { createSecretBox, newSigningSecret, UnreadableSecret } from '../../src/webhooks/secrets.js';

const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;

describe('When a delivery attempt fails', () => {
  it('waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then gives up after the eighth attempt', () => {
    const waits = [1, 2, 3, 4, 5, 6, 7].map((failures) => nextAttemptAt(failures, 0, null));
    expect(waits).to.deep.equal([5 * S, 5 * MIN, 30 * MIN, 2 * H, 5 * H, 10 * H, 10 * H]);
    expect(MAX_ATTEMPTS).to.equal(8);
    expect(nextAttemptAt(8, 0, null)).to.equal(null);
  });
  it('gives a receiver 15 seconds to answer (README: "no answer within 15 seconds" is a failure)', () => {
    expect(ATTEMPT_TIMEOUT_MS).to.equal(15 * S);
  });
  it('waits at least as long as Retry-After asks, up to a day', () => {
    expect(nextAttemptAt(1, 0, 3600 * S)).to.equal(3600 * S);
    expect(nextAttemptAt(4, 0, 60 * S)).to.equal(2 * H);
    expect(nextAttemptAt(1, 0, 90 * 24 * H)).to.equal(24 * H);
  });
  it('reads Retry-After as seconds or an HTTP date, and ignores anything else', () => {
    expect(parseRetryAfter('120', 0)).to.equal(120 * S);
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('Wed, 01 Jan 2025 01:00:00 GMT', now)).to.equal(H);
    expect(parseRetryAfter('soon', now)).to.equal(null);
    // RFC 9110's obsolete forms of an HTTP date count too
    expect(parseRetryAfter('Wednesday, 01-Jan-25 01:00:00 GMT', now)).to.equal(H);
    expect(parseRetryAfter('Wed Jan  1 01:00:00 2025', now)).to.equal(H);
    // neither delay-seconds nor an HTTP date, though Date.parse reads each as a date (the years
    // 3600, 2001, 2001, 2030): ignored, not a day's wait (or none)
    for (const odd of ['3600.5', '1.5', '-5', '2030-01-01']) {
      expect(parseRetryAfter(odd, now), odd).to.equal(null);
    }
    expect(parseRetryAfter(undefined, now)).to.equal(null);
  });
  it('tells delivered, gone and failed apart; Retry-After counts on 429 and 503 only', () => {
    expect(verdictOf(200, undefined, 0)).to.deep.equal({ kind: 'delivered' });
    expect(verdictOf(299, undefined, 0)).to.deep.equal({ kind: 'delivered' });
    expect(verdictOf(410, undefined, 0)).to.deep.equal({ kind: 'gone' });
    // README: "Answer any `2xx` once you have the message. Everything else counts as a failure"
    expect(verdictOf(300, undefined, 0)).to.deep.equal({ kind: 'failed', retryAfterMs: null });
    expect(verdictOf(301, undefined, 0)).to.deep.equal({ kind: 'failed', retryAfterMs: null });
    expect(verdictOf(null, undefined, 0)).to.deep.equal({ kind: 'failed', retryAfterMs: null });
    expect(verdictOf(429, '10', 0)).to.deep.equal({ kind: 'failed', retryAfterMs: 10 * S });
    expect(verdictOf(503, '10', 0)).to.deep.equal({ kind: 'failed', retryAfterMs: 10 * S });
    expect(verdictOf(500, '10', 0)).to.deep.equal({ kind: 'failed', retryAfterMs: null });
  });
});

/** why a public-only check refuses `url` (a resolver with no answer), or '' when it does not */
const refusal = (url: string) =>
  checkTarget(url, { allowPrivate: false, resolve: async () => [] }).then(
    () => '',
    (e: Error) => e.message,
  );

describe('When a target address is classified', () => {
  it('calls only global unicast addresses public', () => {
    const cases: [string, string][] = [
      ['8.8.8.8', 'public'],
      ['2606:4700::1111', 'public'],
      ['::ffff:8.8.8.8', 'public'],
      ['127.0.0.1', 'loopback'],
      ['::1', 'loopback'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['10.0.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.0.1', 'private'],
      ['fd12::1', 'uniqueLocal'],
      ['169.254.1.1', 'linkLocal'],
      ['fe80::1', 'linkLocal'],
      ['100.64.0.1', 'carrierGradeNat'],
      ['224.0.0.251', 'multicast'],
      ['ff02::1', 'multicast'],
      ['169.254.169.254', 'metadata'],
      ['fd00:ec2::254', 'metadata'],
      ['100.100.100.200', 'metadata'],
      ['192.0.0.192', 'metadata'], // Oracle Cloud's
      // "reserved and documentation ranges" (target.ts)
      ['240.0.0.1', 'reserved'],
      ['192.0.2.1', 'reserved'],
      ['2001:db8::1', 'reserved'],
      ['255.255.255.255', 'broadcast'],
      ['0.0.0.0', 'unspecified'],
      // README: "nor to an IPv6 form embedding an IPv4 one unless that one is public (mapped,
      // NAT64, 6to4, Teredo …)": the range is the embedded address's
      ['64:ff9b::7f00:1', 'loopback'],
      ['64:ff9b::a9fe:a9fe', 'metadata'],
      ['64:ff9b::808:808', 'public'],
      ['64:ff9b:1::808:808', 'rfc6052'], // the local-use prefix has no fixed layout
      ['2002:7f00:1::', 'loopback'],
      ['2002:a00:1::1', 'private'],
      ['2002:808:808::1', 'public'],
      ['2001:0:808:808::f7f7:f7f7', 'public'], // Teredo: server 8.8.8.8, client ~f7f7:f7f7
      ['2001:0:808:808::80ff:fffe', 'loopback'], // client 127.0.0.1
      ['2001:0:a00:1::f7f7:f7f7', 'private'], // server 10.0.0.1
      // the deprecated IPv4-compatible ::/96 (`[::127.0.0.1]` is `::7f00:1` once URL-parsed)
      ['::7f00:1', 'ipv4Compatible'],
      ['::a00:1', 'ipv4Compatible'],
      ['::a9fe:a9fe', 'ipv4Compatible'],
      ['::808:808', 'ipv4Compatible'],
      ['::', 'unspecified'],
      // target.ts: global unicast is 2000::/3; IANA has the rest "Reserved by IETF", which
      // ipaddr.js calls plain unicast where it has no name for it (the rest of ::/8, 4000::/3 …)
      ['::1:7f00:1', 'reservedByIetf'],
      ['0:ff::1', 'reservedByIetf'],
      ['100:1::1', 'reservedByIetf'],
      ['4000::1', 'reservedByIetf'],
      ['e000::1', 'reservedByIetf'],
      ['2001:4860:4860::8888', 'public'],
      ['3ffe:1::1', 'public'],
    ];
    for (const [address, range] of cases) expect(addressRange(address), address).to.equal(range);
  });

  it('refuses before resolving anything: other schemes, credentials, http without the setting', async () => {
    const asked: string[] = [];
    const policy = {
      allowPrivate: false,
      resolve: async (host: string) => {
        asked.push(host);
        return ['8.8.8.8'];
      },
    };
    const urls = [
      'ftp://a.example/x',
      'https://u:p@a.example/',
      'https://u@a.example/',
      'https://:p@a.example/',
      'http://a.example/',
    ];
    for (const url of urls) {
      let error: unknown;
      try {
        await checkTarget(url, policy);
      } catch (e) {
        error = e;
      }
      expect(error, url).to.be.instanceOf(RefusedTarget);
    }
    expect(asked, 'names resolved').to.deep.equal([]);
    const ok = await checkTarget('https://a.example:8443/in?x=1', policy);
    expect(ok).to.include({ address: '8.8.8.8', family: 4 });
  });

  it('names the refused range in a sentence: "an unspecified address", "a private address"', async () => {
    expect(await refusal('https://0.0.0.0/x')).to.equal(
      'url points to an unspecified address: 0.0.0.0',
    );
    expect(await refusal('https://10.0.0.1/x')).to.equal(
      'url points to a private address: 10.0.0.1',
    );
    expect(await refusal('https://[0:ff::1]/x')).to.equal(
      'url points to an IETF-reserved IPv6 (outside global unicast 2000::/3) address: 0:ff::1',
    );
    // a name: the address that made it unsafe is shown beside it, whichever of its addresses
    const mixed = await checkTarget('https://intranet.example/x', {
      allowPrivate: false,
      resolve: async () => ['93.184.216.34', '10.1.2.3'],
    }).catch((e: Error) => e.message);
    expect(mixed).to.equal('url points to a private address: intranet.example (10.1.2.3)');
    // a resolver with no answer: refused like a name that does not resolve
    expect(await refusal('https://empty.example/x')).to.equal('empty.example does not resolve');
  });

  // README: "nor to an IPv6 form embedding an IPv4 one unless that one is public (… both
  // addresses of a Teredo one …)": `[2001::1]` is no unspecified address itself, its server is
  it('says which embedded IPv4 address refuses an IPv6 form: a Teredo server, a 6to4 address', async () => {
    expect(await refusal('https://[2001::1]/')).to.equal(
      'url points to a Teredo address whose server is an unspecified address (0.0.0.0): 2001::1',
    );
    expect(await refusal('https://[2001:0:808:808::80ff:fffe]/')).to.equal(
      'url points to a Teredo address whose client is a loopback address (127.0.0.1): 2001:0:808:808::80ff:fffe',
    );
    expect(await refusal('https://[2002:a00:1::1]/')).to.equal(
      'url points to a 6to4 address whose embedded IPv4 is a private address (10.0.0.1): 2002:a00:1::1',
    );
  });
});

describe('When a signing secret is sealed', () => {
  it('opens only under the same service secret and for the same webhook', () => {
    const box = createSecretBox('service-secret-one-0123456789abcdef');
    const secret = newSigningSecret();
    const sealed = box.seal(secret, 'wh_1');
    expect(sealed).not.to.include(secret.slice(6));
    expect(box.open(sealed, 'wh_1')).to.equal(secret);
    expect(() => box.open(sealed, 'wh_2')).to.throw(UnreadableSecret);
    const other = createSecretBox('service-secret-two-0123456789abcdef');
    expect(() => other.open(sealed, 'wh_1')).to.throw(UnreadableSecret);
    const at = sealed.length - 3;
    const tampered = `${sealed.slice(0, at)}${sealed[at] === 'A' ? 'B' : 'A'}${sealed.slice(at + 1)}`;
    expect(() => box.open(tampered, 'wh_1')).to.throw(UnreadableSecret);
    // opened once, it is remembered (secrets.ts) — under its webhook and sealed value only
    expect(() => box.open(sealed, 'wh_2')).to.throw(UnreadableSecret);
    expect(box.open(sealed, 'wh_1')).to.equal(secret);
  });
});
