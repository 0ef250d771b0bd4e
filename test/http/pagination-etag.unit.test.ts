import { expect } from 'chai';
import { z } from 'zod';
import { InvalidArgument } from '../../commands/shared/errors.js';
import { PreconditionFailed } from '../../src/http/errors.js';
import {
  assertIfMatch,
  createCursorCodec,
  etagFor,
  expectedRevisionFrom,
} from '../../src/http/registry.js';

const SECRET = 'a-secret-of-at-least-16-bytes';

describe('Cursor codec', () => {
  describe('When a cursor is passed back unchanged', () => {
    it('decodes to the encoded value within its scope', () => {
      const codec = createCursorCodec(SECRET);
      const cursor = codec.encode({ rank: 'a0', id: 'ABC-7' }, { scope: 'items:acme/ABC' });
      // src/http/pagination.ts: "an HMAC-SHA256 (truncated to 128 bits)": 22 base64url characters
      expect(cursor).to.match(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
      expect(
        codec.decodeAs(cursor, z.object({ rank: z.string(), id: z.string() }), {
          scope: 'items:acme/ABC',
        }),
      ).to.deep.equal({
        rank: 'a0',
        id: 'ABC-7',
      });
    });
  });

  describe('When a cursor was edited, forged or comes from elsewhere', () => {
    // DESIGN.md "HTTP": "Cursors are opaque ... rejected with 400 when tampered with."
    it('throws InvalidArgument naming the parameter', () => {
      const codec = createCursorCodec(SECRET);
      const cursor = codec.encode({ at: 10 });
      const [payload, signature] = cursor.split('.') as [string, string];
      const flipped = `${payload.slice(0, -1)}${payload.endsWith('A') ? 'B' : 'A'}.${signature}`;
      const otherKey = createCursorCodec(`${SECRET}-other`).encode({ at: 10 });
      // the signature's last character carries spare bits that decode to the same bytes
      const lastFlipped = `${payload}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
      for (const bad of [
        flipped,
        lastFlipped,
        otherKey,
        `${payload}.`,
        '',
        '..',
        'x.y.z',
        `${payload}.${signature}x`,
      ]) {
        expect(() => codec.decode(bad, { field: 'pageToken' }), bad).to.throw(
          InvalidArgument,
          /^pageToken is not one this listing issued/,
        );
      }
      expect(() => codec.decode(cursor, { scope: 'elsewhere' })).to.throw(InvalidArgument);
      expect(() => codec.decodeAs(cursor, z.object({ at: z.string() }))).to.throw(InvalidArgument);
    });
    it('refuses a short secret', () => {
      expect(() => createCursorCodec('short')).to.throw(TypeError);
      // "cursor secret must be at least 16 bytes"
      expect(() => createCursorCodec('x'.repeat(15))).to.throw(TypeError);
      expect(() => createCursorCodec('x'.repeat(16))).not.to.throw();
    });
  });
});

describe('ETag and If-Match', () => {
  describe('When If-Match is checked against the current version', () => {
    it('passes when absent, equal, listed, or * on an existing resource', () => {
      expect(etagFor(3)).to.equal('"3"');
      assertIfMatch(undefined, 3);
      assertIfMatch('"3"', 3);
      assertIfMatch('"1", "3"', 3);
      assertIfMatch('*', 3);
    });
    it('throws PreconditionFailed when stale, weak, or the resource is missing', () => {
      expect(() => assertIfMatch('"2"', 3)).to.throw(PreconditionFailed);
      // RFC 9110: If-Match uses the strong comparison; a weak tag never matches.
      expect(() => assertIfMatch('W/"3"', 3)).to.throw(PreconditionFailed);
      expect(() => assertIfMatch('*', undefined)).to.throw(PreconditionFailed);
    });
    it('reads a single strong integer tag as the expected revision', () => {
      expect(expectedRevisionFrom('"12"')).to.equal(12);
      expect(expectedRevisionFrom('*')).to.equal(undefined);
      expect(expectedRevisionFrom('W/"12"')).to.equal(undefined);
      expect(expectedRevisionFrom(undefined)).to.equal(undefined);
    });
  });
});
