/**
 * The read-store contract on MongoDB, when MONGODB_URL points at a server (a replica set, for
 * majority writes). Each harness uses its own database, dropped afterwards.
 * Issue 2: "Same contract-suite rule as the event store" — skipped here with a visible reason.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { MongoClient } from 'mongodb';
import { openMongoReadStore } from '../../src/readstore/mongodb/index.js';
import type { ReadStore } from '../../src/readstore/types.js';
import { readStoreContract } from './contract.js';

const url = process.env.MONGODB_URL;

if (!url) {
  describe('Read store contract: mongodb', () => {
    it('MONGODB_URL not set: MongoDB contract skipped', function () {
      console.log('    MONGODB_URL not set: MongoDB contract skipped');
      this.skip();
    });
  });
} else {
  // MongoDB's buildInfo always names the commit it was built from; the engines' stand-in does not
  let parsedLikeMongoDB: Promise<boolean> | undefined;
  const isMongoDBItself = async (): Promise<boolean> => {
    const client = new MongoClient(url);
    try {
      const info = await client.db('admin').command({ buildInfo: 1 });
      return typeof info.gitVersion === 'string';
    } finally {
      await client.close();
    }
  };
  readStoreContract(
    'mongodb',
    async () => {
      parsedLikeMongoDB ??= isMongoDBItself();
      const database = `readstore_contract_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
      let current: ReadStore = await openMongoReadStore({ url, database });
      return {
        get store() {
          return current;
        },
        flushMakesDurable: false,
        parsesLikeMongoDB: await parsedLikeMongoDB,
        async reopen() {
          await current.close();
          current = await openMongoReadStore({ url, database });
          return current;
        },
        async cleanup() {
          await current.close();
          const client = new MongoClient(url);
          try {
            await client.db(database).dropDatabase();
          } finally {
            await client.close();
          }
        },
      };
    },
    { propertyRuns: 15 },
  );

  describe('MongoDB read store: a replaced driver client (its monitor wedged)', () => {
    const database = `readstore_replace_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
    after(async () => {
      const client = new MongoClient(url);
      try {
        await client.db(database).dropDatabase();
      } finally {
        await client.close();
      }
    });

    it('keeps every collection and the checkpoints working, on the new client', async () => {
      // src/readstore/mongodb/client.ts: "Collections ask for the current database on every
      // operation, so a replacement reaches all of them at once."
      const reasons: string[] = [];
      const store = await openMongoReadStore({
        url,
        database,
        onClientReplaced: (reason) => reasons.push(reason),
      });
      try {
        const items = store.collection<{ _id: string; n: number }>('items');
        await items.insertOne({ _id: 'a', n: 1 });
        await store.flush(new Map([['items', 7n]]));
        store.replaceClient('a test replaced it');
        expect(reasons).to.deep.equal(['a test replaced it']);
        // the handle taken before the replacement reads and writes through the new client
        expect(await items.findOne({ _id: 'a' })).to.deep.equal({ _id: 'a', n: 1 });
        await items.updateOne({ _id: 'a' }, { $inc: { n: 1 } });
        expect((await items.findOne({ _id: 'a' }))?.n).to.equal(2);
        expect(await store.checkpoints()).to.deep.equal(new Map([['items', 7n]]));
        store.replaceClient('and again');
        await items.insertOne({ _id: 'b', n: 3 });
        expect(await items.countDocuments()).to.equal(2);
      } finally {
        await store.close();
      }
    });
  });
}
