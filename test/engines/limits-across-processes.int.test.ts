/**
 * The limits of two API processes over one MongoDB (MONGODB_URL): each process has its own read
 * store connection and its own limits, and both count one key. src/limits/store.ts: "Each take is
 * a read, a pure step (policies.ts) and a compare-and-set on the document's `rev`: two processes
 * taking at once cannot both spend the last unit." Within a process the takes of one key run one
 * after another, so only the other process races them: a TCP proxy (test/support/mongo-proxy.ts)
 * holds the first write of each until both have read the same `rev`, whatever the timing.
 * Runs only when MONGODB_URL is set (`npm run test:engines`).
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { type Document, MongoClient } from 'mongodb';
import {
  createLimits,
  type Limiter,
  LIMITS_COLLECTION,
  type Policy,
  type Verdict,
} from '../../src/limits/index.js';
import { openMongoReadStore } from '../../src/readstore/mongodb/index.js';
import type { ReadStore } from '../../src/readstore/types.js';
import { type MongoProxy, startMongoProxy } from '../support/mongo-proxy.js';

const mongoUrl = process.env.MONGODB_URL;
// fewer writes than store.ts's retries: no take is refused for contention alone
const N = 6;
const BUCKET: Policy = { kind: 'token-bucket', capacity: N, refillEverySeconds: 3600 };
const M = 5;
const WINDOW: Policy = { kind: 'sliding-window', max: M, windowSeconds: 3600 };
/** the window is full only with places whose requests are in flight: one may be given back at any moment */
const HELD_FULL: Verdict = { allowed: false, retryAfterSeconds: 1 };
const now = () => 1_000_000_000;
const KEY = 'ann@example.com';

const limitsWrite = (command: Document) => command.update === LIMITS_COLLECTION;

if (!mongoUrl) {
  describe('Limits of two processes over one MongoDB', () => {
    it('MONGODB_URL not set: skipped', function () {
      console.log('    MONGODB_URL not set: limits across processes suite skipped');
      this.skip();
    });
  });
} else {
  describe('When two API processes over one MongoDB count one key at the same moment', function () {
    this.timeout(60_000);
    const target = new URL(mongoUrl.replace(/^mongodb:/, 'http:'));
    let proxy: MongoProxy;
    let database: string;
    let stores: ReadStore[] = [];

    /** process A's and process B's limiter of one name, each over its own connection */
    async function twoProcesses(policy: Policy): Promise<[Limiter, Limiter]> {
      database = `limits_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
      stores = await Promise.all(
        [0, 1].map(() => openMongoReadStore({ url: proxy.url, database })),
      );
      const [a, b] = stores.map((readStore) =>
        createLimits({ readStore, now }).limiter('searches', policy),
      );
      return [a as Limiter, b as Limiter];
    }

    /** runs `calls` at once, alternately in A and B; the first write of each waits for the other's */
    async function crossing<T>(a: Limiter, b: Limiter, calls: ((l: Limiter) => Promise<T>)[]) {
      const met = proxy.holdUntil(limitsWrite, 2);
      const answers = await Promise.all(calls.map((call, i) => call(i % 2 ? b : a)));
      await met; // they did meet there
      return answers;
    }

    before(async () => {
      proxy = await startMongoProxy({ host: target.hostname, port: Number(target.port) });
    });
    afterEach(async () => {
      await Promise.all(stores.map((store) => store.close()));
      stores = [];
      const client = new MongoClient(mongoUrl);
      try {
        await client.db(database).dropDatabase();
      } finally {
        await client.close();
      }
    });
    after(async () => {
      await proxy?.close();
    });

    it(`grants exactly ${N} of ${3 * N} takes from a bucket of ${N}, split across both`, async () => {
      const [a, b] = await twoProcesses(BUCKET);

      const verdicts = await crossing(
        a,
        b,
        Array.from({ length: 3 * N }, () => (l: Limiter) => l.take(KEY)),
      );

      const granted = verdicts.filter((v) => v.allowed);
      expect(granted.length, JSON.stringify(verdicts)).to.equal(N);
    });

    // reservations.ts: "reserve: refused as a take would be, with the reserved places counted as
    // events; else one more place is held"
    it(`holds no more than ${M} places when ${3 * M} reservations of a window of ${M} meet`, async () => {
      const [a, b] = await twoProcesses(WINDOW);

      const places = await crossing(
        a,
        b,
        Array.from({ length: 3 * M }, () => (l: Limiter) => l.reserve(KEY)),
      );

      const held = places.filter((p) => p.at !== null);
      expect(held.length, JSON.stringify(places)).to.equal(M);
      expect(places.filter((p) => p.at === null).map((p) => p.verdict)).to.deep.equal(
        Array(2 * M).fill(HELD_FULL),
      );
    });

    // reservations.ts: "settle: the place is given up, and when the event did happen, counted as
    // a take"
    it('counts exactly the places settled as happened when settles of both processes meet', async () => {
      const [a, b] = await twoProcesses(WINDOW);
      const places: number[] = [];
      for (let i = 0; i < M; i++) {
        const { at } = await (i % 2 ? b : a).reserve(KEY);
        places.push(at as number);
      }
      const HAPPENED = 2;

      await crossing(
        a,
        b,
        places.map((at, i) => (l: Limiter) => l.settle(KEY, at, i < HAPPENED)),
      );

      // the events counted leave M - HAPPENED; the places given back are free again
      expect(await a.peek(KEY)).to.deep.equal({ allowed: true, remaining: M - HAPPENED });
      const again: Verdict[] = [];
      for (let i = 0; i <= M - HAPPENED; i++)
        again.push((await (i % 2 ? b : a).reserve(KEY)).verdict);
      expect(again.filter((v) => v.allowed).length, JSON.stringify(again)).to.equal(M - HAPPENED);
    });
  });
}
