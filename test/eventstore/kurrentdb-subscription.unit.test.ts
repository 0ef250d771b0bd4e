/**
 * The adapter's Subscription over the client's Readable, driven by a PassThrough standing in for
 * the gRPC subscription. Port: "a catch-up subscription ... in $all order, without gaps or
 * duplicates. Iterate it; close() ends the iteration."
 */
import { PassThrough } from 'node:stream';
import { expect } from 'chai';
import {
  SubscriptionDroppedError,
  createSubscription,
} from '../../src/eventstore/kurrentdb/subscription.js';
import { UnavailableError } from '@kurrent/kurrentdb-client';
import { EventStoreUnavailableError, type RecordedEvent } from '../../src/eventstore/types.js';

interface Raw {
  n: number;
  system?: boolean;
}

function fakeSource() {
  const stream = new PassThrough({ objectMode: true });
  let unsubscribed = 0;
  const source = Object.assign(stream, {
    unsubscribe: async () => {
      unsubscribed += 1;
    },
  });
  return { source, unsubscribedCount: () => unsubscribed };
}

const toEvent = (raw: Raw): RecordedEvent | undefined =>
  raw.system
    ? undefined
    : {
        id: `id-${raw.n}`,
        type: 'Pinged',
        data: { n: raw.n },
        metadata: { actor: null, occurredAt: 0, correlationId: 'c', causationId: null },
        streamId: 's',
        revision: raw.n,
        position: BigInt(raw.n),
      };

describe('When events arrive on the KurrentDB subscription', () => {
  it('delivers the mapped events in order and leaves out the ones mapped away', async () => {
    const { source } = fakeSource();
    const subscription = createSubscription(() => source, toEvent);
    const iterator = subscription[Symbol.asyncIterator]();
    const first = iterator.next(); // opens the source
    for (const raw of [{ n: 1 }, { n: 2, system: true }, { n: 3 }]) source.write(raw);
    expect((await first).value?.position).to.equal(1n);
    expect((await iterator.next()).value?.position).to.equal(3n);
    await subscription.close();
  });

  it('does not open the server subscription until someone iterates', async () => {
    let opened = 0;
    const { source } = fakeSource();
    const subscription = createSubscription(() => {
      opened += 1;
      return source;
    }, toEvent);
    expect(opened).to.equal(0);
    await subscription.close();
    expect(opened).to.equal(0);
  });

  it('pauses the source while the consumer lags and resumes once it drains', async () => {
    const { source } = fakeSource();
    const subscription = createSubscription(() => source, toEvent);
    const iterator = subscription[Symbol.asyncIterator]();
    const first = iterator.next();
    for (let n = 1; n <= 600; n += 1) source.write({ n });
    await new Promise((resolve) => setImmediate(resolve));
    expect(source.isPaused()).to.equal(true);
    await first;
    for (let n = 2; n <= 600; n += 1) expect((await iterator.next()).value?.revision).to.equal(n);
    expect(source.isPaused()).to.equal(false);
    await subscription.close();
  });
});

describe('When the KurrentDB subscription is closed', () => {
  it('ends a pending iteration and cancels the server call', async () => {
    const { source, unsubscribedCount } = fakeSource();
    const subscription = createSubscription(() => source, toEvent);
    const seen: number[] = [];
    const consuming = (async () => {
      for await (const event of subscription) seen.push(event.revision);
    })();
    source.write({ n: 1 });
    await new Promise((resolve) => setImmediate(resolve));
    await subscription.close();
    await consuming; // would hang forever if close() did not wake the waiting consumer
    expect(seen).to.deep.equal([1]);
    expect(unsubscribedCount()).to.equal(1);
    expect(source.destroyed).to.equal(true);
  });

  it('cancels the server call when the consumer breaks out of the loop', async () => {
    const { source, unsubscribedCount } = fakeSource();
    const subscription = createSubscription(() => source, toEvent);
    source.write({ n: 1 });
    for await (const _event of subscription) break;
    expect(unsubscribedCount()).to.equal(1);
  });
});

describe('When the KurrentDB subscription fails', () => {
  it('delivers the events received before the error, then throws it', async () => {
    const { source } = fakeSource();
    const subscription = createSubscription(() => source, toEvent);
    const iterator = subscription[Symbol.asyncIterator]();
    const first = iterator.next();
    source.write({ n: 1 });
    await new Promise((resolve) => setImmediate(resolve));
    source.destroy(new Error('connection reset'));
    expect((await first).value?.revision).to.equal(1);
    let thrown: unknown;
    try {
      await iterator.next();
    } catch (error) {
      thrown = error;
    }
    expect((thrown as Error).message).to.equal('connection reset');
  });

  it('throws a typed error when the server ends the subscription unasked', async () => {
    const { source } = fakeSource();
    const subscription = createSubscription(() => source, toEvent);
    const iterator = subscription[Symbol.asyncIterator]();
    const pending = iterator.next();
    source.end();
    let thrown: unknown;
    try {
      await pending;
    } catch (error) {
      thrown = error;
    }
    expect(thrown).to.be.instanceOf(SubscriptionDroppedError);
    // so the projection engine and the webhook worker resubscribe from their checkpoints
    expect(thrown).to.be.instanceOf(EventStoreUnavailableError);
  });

  it('throws EventStoreUnavailableError when the connection drops (14 UNAVAILABLE)', async () => {
    const { source } = fakeSource();
    const subscription = createSubscription(() => source, toEvent);
    const iterator = subscription[Symbol.asyncIterator]();
    const pending = iterator.next();
    const dropped = new UnavailableError(
      Object.assign(new Error('14 UNAVAILABLE: Connection dropped'), { code: 14 }) as never,
    );
    source.destroy(dropped);
    let thrown: unknown;
    try {
      await pending;
    } catch (error) {
      thrown = error;
    }
    expect(thrown).to.be.instanceOf(EventStoreUnavailableError);
    expect((thrown as Error).cause).to.equal(dropped);
  });

  it('surfaces a mapping failure instead of skipping the event (no silent gaps)', async () => {
    const { source } = fakeSource();
    const subscription = createSubscription(
      () => source,
      (raw: Raw) => {
        if (raw.n === 2) throw new Error('binary event');
        return toEvent(raw);
      },
    );
    const iterator = subscription[Symbol.asyncIterator]();
    const first = iterator.next();
    source.write({ n: 1 });
    source.write({ n: 2 });
    source.write({ n: 3 });
    expect((await first).value?.revision).to.equal(1);
    let thrown: unknown;
    try {
      await iterator.next();
    } catch (error) {
      thrown = error;
    }
    expect((thrown as Error).message).to.equal('binary event');
  });
});
