/**
 * The public board's one guard (src/feedback/capture/guard.ts) over a real read store: issue 12
 * item 5, "per-IP, per-person and per-product token buckets kept in the store" and "limits on
 * links". The per-IP and per-person buckets are also exercised over HTTP (capture and
 * submit_feedback tests); the per-product one and the all-or-nothing draw are here.
 */
import { expect } from 'chai';
import { InvalidArgument, ResourceExhausted } from '../../../commands/shared/errors.js';
import { type CaptureLimits, createCaptureGuard } from '../../../src/feedback/capture/guard.js';
import { openTestStores, type TestStores } from '../../support/stores.js';

const LIMITS: CaptureLimits = {
  ipBurst: 100,
  ipPerHour: 100,
  personBurst: 100,
  personPerHour: 100,
  productBurst: 3,
  productPerHour: 6,
  minFillSeconds: 3,
  maxLinks: 2,
  plusOnesPerIpPerHour: 300,
  plusOnesPerIpPerItemPerDay: 10,
  searchesPerIpBurst: 60,
  searchesPerIpPerHour: 600,
  codesPerVisitorBurst: 3,
  codesPerVisitorPerHour: 6,
};

describe('The capture guard (integration)', () => {
  let stores: TestStores;
  let now = 1_700_000_000_000;
  beforeEach(async () => {
    stores = await openTestStores();
  });
  afterEach(() => stores.cleanup());

  const guard = (limits = LIMITS) =>
    createCaptureGuard({ readStore: stores.readStore, now: () => now, limits });

  it('refuses a product its burst from everyone together, with the wait until the next token', async () => {
    const g = guard();
    for (let i = 0; i < 3; i++) {
      await g.holdSubmission({ ip: `10.0.0.${i}`, person: `p${i}`, product: 'ws.APP' });
    }
    const refused = await g
      .holdSubmission({ ip: '10.0.0.9', person: 'p9', product: 'ws.APP' })
      .catch((error: unknown) => error);
    expect(refused).to.be.instanceOf(ResourceExhausted);
    // one token every 3600 / 6 = 600 s
    expect((refused as ResourceExhausted).retryAfterSeconds).to.be.within(1, 600);
    // another product is not affected
    await g.holdSubmission({ ip: '10.0.0.9', person: 'p9', product: 'ws.WEB' });
    now += 600_000;
    await g.holdSubmission({ ip: '10.0.0.9', person: 'p9', product: 'ws.APP' });
  });

  it('draws from no bucket when one of them refuses', async () => {
    const g = guard({ ...LIMITS, personBurst: 1, personPerHour: 1 });
    await g.holdSubmission({ ip: '10.0.0.1', person: 'ana', product: 'ws.APP' });
    // ana is out of tokens: the product's bucket must not pay for her refused attempts
    for (let i = 0; i < 5; i++) {
      await g.holdSubmission({ ip: '10.0.0.1', person: 'ana', product: 'ws.APP' }).catch(() => {});
    }
    await g.holdSubmission({ ip: '10.0.0.2', person: 'ben', product: 'ws.APP' });
    await g.holdSubmission({ ip: '10.0.0.3', person: 'cy', product: 'ws.APP' });
  });

  it("draws a +1 from neither the IP's bucket nor the item's when the item's refuses", async () => {
    // README: "+1 toggles: 300 an hour per IP" and "10 a day per IP and item" — both or neither
    const g = guard({ ...LIMITS, plusOnesPerIpPerHour: 20, plusOnesPerIpPerItemPerDay: 1 });
    // the +1 was made (settled): while it was only held, a refusal would say 1 s, the soonest its
    // token could come back (src/limits/token-bucket.ts)
    await (await g.holdPlusOne('10.0.0.1', 'ws.APP-1'))(true);
    for (let i = 0; i < 5; i++) {
      const refused = await g.holdPlusOne('10.0.0.1', 'ws.APP-1').catch((e: unknown) => e);
      expect(refused).to.be.instanceOf(ResourceExhausted);
      // one a day: the wait is about a day, not the IP bucket's
      expect((refused as ResourceExhausted).retryAfterSeconds).to.be.greaterThan(3600);
    }
    // the IP's burst is 2 (a tenth of 20): only the first +1 took from it
    await g.holdPlusOne('10.0.0.1', 'ws.APP-2');
    const spent = await g.holdPlusOne('10.0.0.1').catch((e: unknown) => e);
    expect(spent).to.be.instanceOf(ResourceExhausted);
  });

  it('counts links in the title and the body together', () => {
    const g = guard();
    g.checkContent({ title: 'see https://a.example', body: 'and www.b-example.com' });
    expect(() =>
      g.checkContent({ title: 'https://a.example', body: 'http://b.example www.c-example.com' }),
    ).to.throw(InvalidArgument, /at most 2 links \(this has 3\)/);
    expect(() => g.checkContent({ body: '   ' })).to.throw(InvalidArgument);
  });
});
