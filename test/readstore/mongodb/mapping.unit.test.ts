/**
 * The MongoDB adapter's pure mapping code, tested without a server (issue 2, "Must show": "The
 * real adapters compile and their unit-level mapping code is tested").
 */
import { expect } from 'chai';
import { Aggregator } from 'mingo';
import { MongoNetworkError, MongoServerError, MongoServerSelectionError } from 'mongodb';
import { feedbackEnvelope } from '../../../src/http/envelopes.js';
import { resolveError } from '../../../src/http/errors.js';
import {
  advanceCheckpoint,
  decodeCheckpoint,
  encodeCheckpoint,
  isNamespaceNotFound,
  mapDriverError,
} from '../../../src/readstore/mongodb/mapping.js';
import { redact } from '../../../src/readstore/mongodb/index.js';
import { DuplicateKeyError, ReadStoreUnavailableError } from '../../../src/readstore/types.js';

describe('MongoDB read store: mapping', () => {
  describe('When the driver reports a duplicate key (E11000)', () => {
    it('becomes DuplicateKeyError carrying the collection and the key value', () => {
      const driverError = new MongoServerError({
        message:
          'E11000 duplicate key error collection: db.people index: email_1 dup key: { email: "a@x.io" }',
        code: 11000,
        keyValue: { email: 'a@x.io' },
      });
      const mapped = mapDriverError('people', driverError);
      expect(mapped).to.be.instanceOf(DuplicateKeyError);
      expect((mapped as DuplicateKeyError).collection).to.equal('people');
      expect((mapped as DuplicateKeyError).key).to.equal('{"email":"a@x.io"}');
    });

    it('reads the key from the message when keyValue is absent, and from bulk write errors', () => {
      const fromMessage = mapDriverError('c', {
        code: 11000,
        message: 'E11000 ... dup key: { _id: "x" }',
      });
      expect((fromMessage as DuplicateKeyError).key).to.equal('{ _id: "x" }');
      const bulk = mapDriverError('c', { writeErrors: [{ code: 11000 }], message: 'bulk' });
      expect(bulk).to.be.instanceOf(DuplicateKeyError);
    });
  });

  describe('When the server cannot be reached (issue 13: "the stand-ins restarted under load")', () => {
    it('becomes ReadStoreUnavailableError, which the HTTP layer answers 503 with Retry-After', () => {
      const ended = Object.assign(new Error('This socket has been ended by the other party'), {
        code: 'EPIPE',
      });
      const retryable = new MongoServerError({ message: 'write interrupted', code: 50 });
      retryable.addErrorLabel('RetryableWriteError');
      for (const error of [
        new MongoNetworkError('connect ECONNREFUSED 127.0.0.1:27018'),
        new MongoServerSelectionError('Server selection timed out after 30000 ms', {} as never),
        // what the driver let through unwrapped when the stand-in's MongoDB side went away
        ended,
        // a replica set electing or a server shutting down, for a moment during a restart
        new MongoServerError({ message: 'not primary', code: 10107 }),
        new MongoServerError({ message: 'interrupted at shutdown', code: 11600 }),
        retryable,
      ]) {
        const mapped = mapDriverError('items', error);
        expect(mapped).to.be.instanceOf(ReadStoreUnavailableError);
        const resolved = resolveError(mapped);
        expect(resolved.kind).to.equal('unavailable');
        expect(resolved.headers['Retry-After']).to.equal('5');
        expect(feedbackEnvelope().status(resolved.kind)).to.equal(503);
      }
    });
  });

  describe('When the driver reports anything else', () => {
    it('passes the error through unchanged', () => {
      const bad = new MongoServerError({ message: 'unknown operator: $nope', code: 2 });
      expect(mapDriverError('c', bad)).to.equal(bad);
      const bug = new TypeError('x is not a function');
      expect(mapDriverError('c', bug)).to.equal(bug);
    });
  });

  describe('When checkpoints are stored', () => {
    it('round-trips positions beyond 2^64 as decimal strings', () => {
      const big = 2n ** 64n + 17n;
      const doc = encodeCheckpoint('items', big);
      expect(doc).to.deep.equal({ _id: 'items', position: '18446744073709551633' });
      expect(decodeCheckpoint(doc)).to.deep.equal(['items', big]);
    });

    it('refuses malformed documents and negative positions', () => {
      expect(() => decodeCheckpoint({ _id: 'x', position: 12 })).to.throw(TypeError);
      expect(() => decodeCheckpoint({ _id: 'x', position: '-3' })).to.throw(TypeError);
      expect(() => encodeCheckpoint('x', -1n)).to.throw(RangeError);
    });

    it('only moves one forward: the update keeps a stored position that is not behind', () => {
      // src/readstore/types.ts, `flush`: "A checkpoint only moves forward: one given behind the
      // stored one leaves it as it is." The pipeline MongoDB runs, run here by mingo (the same
      // aggregation expressions); on a server by test/readstore/mongodb.int.test.ts (contract)
      const stored = (position: string | undefined, given: bigint) => {
        const doc = position === undefined ? { _id: 'items' } : { _id: 'items', position };
        const { update } = advanceCheckpoint('items', given).updateOne;
        return new Aggregator(update).run([doc])[0]?.position;
      };
      expect(stored('41', 40n), 'behind').to.equal('41');
      expect(stored('41', 41n), 'the same').to.equal('41');
      expect(stored('41', 42n), 'ahead').to.equal('42');
      expect(stored('99', 100n), 'ahead, one digit longer').to.equal('100');
      expect(stored('100', 99n), 'behind, one digit shorter').to.equal('100');
      expect(stored('18446744073709551633', 2n ** 64n), 'behind, past 2^64').to.equal(
        '18446744073709551633',
      );
      expect(stored(undefined, 7n), 'none stored yet (the upsert)').to.equal('7');
    });
  });

  describe('When dropping a collection that does not exist', () => {
    it('recognises NamespaceNotFound', () => {
      expect(isNamespaceNotFound({ code: 26 })).to.equal(true);
      expect(isNamespaceNotFound({ codeName: 'NamespaceNotFound' })).to.equal(true);
      expect(isNamespaceNotFound({ code: 11000 })).to.equal(false);
    });
  });

  describe('When a connection string carries credentials', () => {
    it('hides them in messages', () => {
      expect(redact('mongodb://user:secret@db1:27017,db2/?replicaSet=rs0')).to.equal(
        'mongodb://***@db1:27017,db2/?replicaSet=rs0',
      );
    });
  });
});
