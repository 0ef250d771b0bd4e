/**
 * store.ts: "Each take is a read, a pure step and a compare-and-set on the document's `rev` ...
 * Within a process the takes of one key run one after another, so the compare-and-set only ever
 * races another process ... When the store is contended past a few retries the take is refused
 * (fail closed) with a one-second retry."
 */
import { expect } from 'chai';
import {
  createLimits,
  type Limiter,
  LIMITS_COLLECTION,
  type Policy,
} from '../../src/limits/index.js';
import type { ReadStore } from '../../src/readstore/types.js';
import { interceptedStore } from '../support/intercepted-store.js';

const BUCKET: Policy = { kind: 'token-bucket', capacity: 100, refillEverySeconds: 3600 };
const now = () => 1_000_000_000;

describe('When takes of one key meet in the store', () => {
  let readStore: ReadStore | undefined;
  let remove = () => {};
  afterEach(async () => {
    await readStore?.close();
    remove();
  });

  it('refuses, fail closed, with a one-second retry while another process wins every compare-and-set', async () => {
    let rival: Limiter | undefined;
    let contended = false;
    let rivalTaking = false;
    let tries = 0;
    const store = interceptedStore('contended-limits-', async (collection, method, proceed) => {
      if (
        contended &&
        !rivalTaking &&
        collection === LIMITS_COLLECTION &&
        method === 'replaceOne'
      ) {
        // another process takes from the same key between this one's read and its write
        tries++;
        rivalTaking = true;
        await rival!.take('ann');
        rivalTaking = false;
      }
      return proceed();
    });
    remove = store.remove;
    readStore = await store.open();
    const mine = createLimits({ readStore, now }).limiter('searches', BUCKET);
    rival = createLimits({ readStore, now }).limiter('searches', BUCKET);
    await mine.take('ann');
    contended = true;
    expect(await mine.take('ann')).to.deep.equal({ allowed: false, retryAfterSeconds: 1 });
    expect(tries, 'compare-and-sets tried').to.be.within(3, 20);
    contended = false;
    // the refusal counted nothing; each of the rival's takes did
    expect(await mine.take('ann')).to.deep.equal({ allowed: true, remaining: 100 - 2 - tries });
  });

  it('queues a take that arrives while an earlier one of its key is in flight: no compare-and-set lost in one process', async () => {
    let reads = 0;
    let writes = 0;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const store = interceptedStore('queued-limits-', async (collection, method, proceed) => {
      if (collection !== LIMITS_COLLECTION) return proceed();
      if (method === 'replaceOne' || method === 'insertOne') writes++;
      if (method !== 'findOne') return proceed();
      const answer = await proceed();
      if (++reads === 2) await held; // the second take has read the state; it answers late
      return answer;
    });
    remove = store.remove;
    readStore = await store.open();
    const limiter = createLimits({ readStore, now }).limiter('product', BUCKET);
    const first = limiter.take('DUO');
    const second = limiter.take('DUO');
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    // a third arrives after the first settled, the second still in flight
    const third = limiter.take('DUO');
    await new Promise((resolve) => setImmediate(resolve));
    release();
    const verdicts = await Promise.all([second, third]);
    expect(verdicts.map((v) => v.allowed)).to.deep.equal([true, true]);
    expect(writes, 'writes for three takes').to.equal(3);
  });
});
