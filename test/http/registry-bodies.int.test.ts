/**
 * The operation registry over HTTP (feedback envelope): bodies that are invalid, malformed, of
 * the wrong type or encoding, or too large.
 */
import { expect } from 'chai';
import { LONE_SURROGATE, NOT_UTF8 } from '../../src/http/json-body.js';
import {
  ADMIN,
  JSON_ADMIN,
  expectEnvelope,
  tinyFeedbackPerTest,
} from './support/feedback-calls.js';

describe('Operation registry over HTTP (feedback envelope)', () => {
  const tiny = tinyFeedbackPerTest();
  const { call, createWidget } = tiny;

  describe('When a body is invalid', () => {
    it('accepts name at 20 characters and rejects 21', async () => {
      expect((await createWidget({ name: 'x'.repeat(20), color: 'red' })).res.status).to.equal(201);
      const r = await createWidget({ name: 'x'.repeat(21), color: 'red' });
      expectEnvelope(r, 400, 'invalid-argument');
      expect(r.json.error).to.equal('name must be at most 20 characters long');
    });
    it('accepts 3 tags and rejects 4', async () => {
      expect(
        (await createWidget({ name: 'n', color: 'red', tags: ['a', 'b', 'c'] })).res.status,
      ).to.equal(201);
      const r = await createWidget({ name: 'n', color: 'red', tags: ['a', 'b', 'c', 'd'] });
      expectEnvelope(r, 400, 'invalid-argument');
      expect(r.json.error).to.equal('tags must have at most 3 entries');
    });
    it('rejects a bad enum, a missing field, an unknown field on a strict body', async () => {
      expect((await createWidget({ name: 'n', color: 'pink' })).json.error).to.match(
        /color must be one of/,
      );
      expect((await createWidget({ color: 'red' })).json.error).to.equal('name is required');
      const unknown = await createWidget({ name: 'n', color: 'red', owner: 'me' });
      expectEnvelope(unknown, 400, 'invalid-argument');
      // README: "An unknown field of a body or an unknown query parameter is refused (`400`,
      // naming what the operation takes)"
      expect(unknown.json.error).to.equal('unknown field "owner"; it takes name, color, tags');
    });
    it('names at most 10 unknown fields, each cut to 64 characters, instead of echoing them all', async () => {
      // security audit: a body of 60,000 made-up keys came back as a 700 KB error
      const made = Object.fromEntries(
        Array.from({ length: 20 }, (_, i) => [`${'k'.repeat(70)}${i}`, 1]),
      );
      const r = await createWidget({ name: 'n', color: 'red', ...made });
      expectEnvelope(r, 400, 'invalid-argument');
      const named = `"${'k'.repeat(64)}…"`;
      expect(r.json.error).to.equal(
        `unknown fields ${Array(10).fill(named).join(', ')} and 10 more; it takes name, color, tags`,
      );
    });
    it('rejects malformed JSON, a non-object body and a missing body', async () => {
      const malformed = await call('POST', '/v1/shops/acme/widgets', {
        headers: JSON_ADMIN,
        body: '{"name":',
      });
      expectEnvelope(malformed, 400, 'invalid-argument');
      expect(malformed.json.error).to.match(/not valid JSON/);
      const array = await createWidget([1, 2]);
      expectEnvelope(array, 400, 'invalid-argument');
      // valid JSON that is not an object is told so, not called malformed
      for (const body of ['null', '"x"', '7']) {
        const scalar = await call('POST', '/v1/shops/acme/widgets', { headers: JSON_ADMIN, body });
        expectEnvelope(scalar, 400, 'invalid-argument');
        expect(scalar.json.error, body).to.equal('request body must be a JSON object');
      }
      const missing = await call('POST', '/v1/shops/acme/widgets', { headers: ADMIN });
      expectEnvelope(missing, 400, 'invalid-argument');
      expect(missing.json.error).to.match(/request body is required/);
    });
    it('rejects a wrong content type with 400 invalid-argument (feedback declares no 415)', async () => {
      const r = await call('POST', '/v1/shops/acme/widgets', {
        headers: { ...ADMIN, 'content-type': 'text/plain' },
        body: '{"name":"n","color":"red"}',
      });
      expectEnvelope(r, 400, 'invalid-argument');
      expect(r.json.error).to.match(/Content-Type must be application\/json/);
    });
    it('rejects a body that does not decompress as its Content-Encoding says, in plain words', async () => {
      const r = await call('POST', '/v1/shops/acme/widgets', {
        headers: { ...JSON_ADMIN, 'content-encoding': 'gzip' },
        body: '{"name":"n","color":"red"}',
      });
      expectEnvelope(r, 400, 'invalid-argument');
      expect(r.json.error).to.equal(
        'request body could not be decompressed as its Content-Encoding says',
      );
    });
    it('rejects a body that is not UTF-8 instead of storing U+FFFD in its place', async () => {
      // RFC 8259 §8.1: JSON exchanged between systems MUST be encoded in UTF-8
      for (const bytes of [
        [0xff, 0xfe],
        [0xc3, 0x28],
      ]) {
        const body = new Blob([
          Buffer.concat([
            Buffer.from('{"name":"n'),
            Buffer.from(bytes),
            Buffer.from('","color":"red"}'),
          ]),
        ]);
        const r = await call('POST', '/v1/shops/acme/widgets', { headers: JSON_ADMIN, body });
        expectEnvelope(r, 400, 'invalid-argument');
        expect(r.json.error).to.equal(NOT_UTF8);
      }
    });
    it('rejects a lone surrogate escape in a value or a key, and keeps a pair', async () => {
      // RFC 8259 §8.2: "\ud83d" alone is no character; strict JSON parsers refuse it on the way out
      for (const body of [
        '{"name":"n \\ud83d here","color":"red"}',
        '{"name":"\\udc00","color":"red"}',
        '{"name":"n","color":"red","tags":["a","b\\ud800"]}',
        '{"name":"n","color":"red","\\ud800":1}',
      ]) {
        const r = await call('POST', '/v1/shops/acme/widgets', { headers: JSON_ADMIN, body });
        expectEnvelope(r, 400, 'invalid-argument');
        expect(r.json.error, body).to.equal(LONE_SURROGATE);
      }
      const paired = await createWidget({ name: 'n \ud83d\ude00', color: 'red' });
      expect(paired.res.status).to.equal(201);
    });
    it('rejects an oversize body with 400 invalid-argument, naming the bound', async () => {
      const r = await createWidget({ name: 'n', color: 'red', padding: 'x'.repeat(5000) });
      expectEnvelope(r, 400, 'invalid-argument');
      expect(r.json.error).to.equal('request body is too large: at most 2,048 bytes');
    });
  });
});
