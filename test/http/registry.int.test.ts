import type { Server } from 'node:http';
import { expect } from 'chai';
import { LONE_SURROGATE, NOT_UTF8 } from '../../src/http/json-body.js';
import { feedbackEnvelope } from '../../src/http/registry.js';
import {
  appOf,
  close,
  listen,
  newWorld,
  type TinyWorld,
  tinyHttp,
} from './support/tiny-service.js';

const ADMIN = { authorization: 'Bearer admin' };
const MEMBER = { authorization: 'Bearer member' };
const JSON_ADMIN = { ...ADMIN, 'content-type': 'application/json' };

describe('Operation registry over HTTP (feedback envelope)', () => {
  let world: TinyWorld;
  let server: Server;
  let base: string;

  beforeEach(async () => {
    world = newWorld();
    ({ server, base } = await listen(appOf(tinyHttp(world, feedbackEnvelope()))));
  });
  afterEach(() => close(server));

  async function call(
    method: string,
    path: string,
    init: { headers?: Record<string, string>; body?: string | Blob } = {},
  ) {
    const res = await fetch(base + path, { method, headers: init.headers, body: init.body });
    const text = await res.text();
    return { res, text, json: text ? JSON.parse(text) : undefined };
  }

  /** spec 000 "Errors": "Every 4xx and 5xx answer has one envelope: {error: string, code: string}, both required, no other fields." */
  function expectEnvelope(r: { res: Response; json: unknown }, status: number, code: string) {
    expect(r.res.status).to.equal(status);
    expect(r.res.headers.get('content-type')).to.match(/^application\/json/);
    expect(Object.keys(r.json as object).sort()).to.deep.equal(['code', 'error']);
    expect((r.json as { code: string }).code).to.equal(code);
    expect((r.json as { error: string }).error).to.be.a('string').and.not.empty;
  }

  async function createWidget(body: unknown, headers: Record<string, string> = JSON_ADMIN) {
    return call('POST', '/v1/shops/acme/widgets', { headers, body: JSON.stringify(body) });
  }

  describe('When requests are valid', () => {
    it('creates with the declared success status and lists with query defaults applied', async () => {
      const created = await createWidget({ name: 'bolt', color: 'red', tags: ['a'] });
      expect(created.res.status).to.equal(201);
      expect(created.json).to.deep.equal({ id: 'w1' });
      const listed = await call('GET', '/v1/shops/acme/widgets', { headers: MEMBER });
      expect(listed.res.status).to.equal(200);
      expect(listed.res.headers.get('x-page-size')).to.equal('50');
      expect(listed.json).to.deep.equal({
        items: [{ id: 'w1', name: 'bolt', color: 'red', tags: ['a'] }],
        nextCursor: null,
      });
    });

    it('answers a 204 operation with no body', async () => {
      const r = await call('DELETE', '/v1/shops/acme', { headers: ADMIN });
      expect(r.res.status).to.equal(204);
      expect(r.text).to.equal('');
    });

    it('matches a literal segment before a parameter (search is not an id)', async () => {
      const r = await call('GET', '/v1/shops/acme/widgets/search?q=bo', { headers: MEMBER });
      expect(r.res.status).to.equal(200);
      expect(r.json).to.deep.equal({ hits: [] });
    });

    it('sends a correlation id on every answer and reuses a well-formed incoming one', async () => {
      const mine = await call('GET', '/v1/shops/acme/widgets', {
        headers: { ...MEMBER, 'x-correlation-id': 'abc-123' },
      });
      expect(mine.res.headers.get('x-correlation-id')).to.equal('abc-123');
      const minted = await call('GET', '/v1/nowhere');
      expect(minted.res.headers.get('x-correlation-id')).to.match(/^[0-9a-f-]{36}$/);
    });
  });

  describe('When a query value sits at or past its bounds', () => {
    // spec 000 "Limits": "pageSize (list_items, list_people) | 1 to 200, default 50"
    for (const ok of ['1', '200']) {
      it(`accepts pageSize=${ok}`, async () => {
        const r = await call('GET', `/v1/shops/acme/widgets?pageSize=${ok}`, { headers: MEMBER });
        expect(r.res.status).to.equal(200);
        expect(r.res.headers.get('x-page-size')).to.equal(ok);
      });
    }
    const bad: [string, RegExp][] = [
      ['pageSize=0', /pageSize must be at least 1/],
      ['pageSize=201', /pageSize must be at most 200/],
      // only the bound that binds, not also an integer's own (2^53 − 1)
      ['pageSize=1e308', /^pageSize must be at most 200$/],
      ['pageSize=-1e308', /^pageSize must be at least 1$/],
      ['pageSize=1.5', /pageSize must be an integer/],
      ['pageSize=ten', /pageSize must be a number/],
      ['pageSize=1.5', /^pageSize must be an integer, not a number with a fraction \(1\.5\)$/],
      ['color=purple', /color must be one of: red, green, blue/],
      ['reverse=yes', /reverse must be a boolean/],
      ['color=red&color=blue', /^color must be given only once$/],
      // brackets are not read: silently ignoring `color[]=red` would drop the filter
      ['color[]=red', /^color must be given as color=…, without brackets$/],
      ['pageSize[0]=1', /^pageSize must be given as pageSize=…, without brackets$/],
      // an unknown parameter is refused like an unknown body field (DX audit: a misspelled
      // filter answered everything; another listing's cursor name restarted paging forever)
      [
        'colour=red',
        /^unknown query parameter "colour"; it takes pageSize, color, cursor, reverse$/,
      ],
      [
        'pageSize=2&after=abc',
        /^unknown query parameter "after"; it takes pageSize, color, cursor, reverse$/,
      ],
      ['other[]=1', /^unknown query parameter "other\[\]"; it takes/],
    ];
    for (const [query, message] of bad) {
      it(`rejects ${query} with 400 invalid-argument and a clear message`, async () => {
        const r = await call('GET', `/v1/shops/acme/widgets?${query}`, { headers: MEMBER });
        expectEnvelope(r, 400, 'invalid-argument');
        expect(r.json.error).to.match(message);
      });
    }
    it('refuses any query parameter on an operation that takes none', async () => {
      const r = await call('GET', '/v1/shops/acme/widgets/w1?x=1', { headers: MEMBER });
      expectEnvelope(r, 400, 'invalid-argument');
      expect(r.json.error).to.equal('unknown query parameter "x"; it takes none');
    });
    it('coerces booleans from true/false', async () => {
      await createWidget({ name: 'a', color: 'red' });
      await createWidget({ name: 'b', color: 'red' });
      const r = await call('GET', '/v1/shops/acme/widgets?reverse=true', { headers: MEMBER });
      expect(r.json.items.map((w: { name: string }) => w.name)).to.deep.equal(['b', 'a']);
      const f = await call('GET', '/v1/shops/acme/widgets?reverse=false', { headers: MEMBER });
      expect(f.json.items.map((w: { name: string }) => w.name)).to.deep.equal(['a', 'b']);
    });
    it('rejects a path parameter that does not match its format', async () => {
      const r = await call('GET', '/v1/shops/ACME!/widgets', { headers: MEMBER });
      expectEnvelope(r, 400, 'invalid-argument');
      expect(r.json.error).to.match(/^shop has an invalid format/);
    });
  });

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

  describe('When the route or method is unknown', () => {
    it('answers an unknown route with the 404 envelope, not HTML', async () => {
      expectEnvelope(await call('GET', '/v1/nowhere'), 404, 'not-found');
      expectEnvelope(await call('GET', '/'), 404, 'not-found');
    });
    it('answers a wrong method on a known path with 404 not-found and an Allow header', async () => {
      const r = await call('PUT', '/v1/shops/acme/widgets', { headers: ADMIN });
      expectEnvelope(r, 404, 'not-found');
      expect(r.res.headers.get('allow')).to.equal('GET, HEAD, POST');
    });
  });

  describe('When the caller is not authenticated or not allowed', () => {
    // spec 000 "Errors": "missing, invalid or expired credential; anonymous session | 401 | unauthenticated"
    it('answers 401 with the service challenge, with and without a token', async () => {
      const none = await call('GET', '/v1/shops/acme/widgets');
      expectEnvelope(none, 401, 'unauthenticated');
      expect(none.res.headers.get('www-authenticate')).to.equal('Bearer realm="tiny"');
      const bad = await call('GET', '/v1/shops/acme/widgets', {
        headers: { authorization: 'Bearer nope' },
      });
      expectEnvelope(bad, 401, 'unauthenticated');
      expect(bad.res.headers.get('www-authenticate')).to.equal(
        'Bearer realm="tiny", error="invalid_token"',
      );
    });
    it('checks the credential before reading the body', async () => {
      const r = await call('POST', '/v1/shops/acme/widgets', {
        headers: { 'content-type': 'application/json' },
        body: '{',
      });
      expectEnvelope(r, 401, 'unauthenticated');
    });
    // spec 000 "Authorization model": "Some routes require the admin role; a member without it gets 403."
    it('answers 403 permission-denied when authorize refuses a member on an admin operation', async () => {
      expectEnvelope(
        await call('DELETE', '/v1/shops/acme', { headers: MEMBER }),
        403,
        'permission-denied',
      );
    });
    it('answers what authorize throws (404 for a hidden shop) before the handler runs', async () => {
      const r = await createWidget({ name: 'n', color: 'red' }, { ...JSON_ADMIN });
      expect(r.res.status).to.equal(201);
      const hidden = await call('POST', '/v1/shops/hidden/widgets', {
        headers: JSON_ADMIN,
        body: '{"name":"n","color":"red"}',
      });
      expectEnvelope(hidden, 404, 'not-found');
      expect(world.log).to.have.length(1);
    });
  });

  describe('When a handler fails unexpectedly', () => {
    it('answers 500 internal without details and logs the error with the correlation id', async () => {
      const r = await call('GET', '/v1/explode');
      expectEnvelope(r, 500, 'internal');
      expect(r.text).not.to.match(/hunter2|at .*\.ts|Error:/);
      const id = r.res.headers.get('x-correlation-id');
      expect(r.json.error).to.contain(id);
      expect(world.logged).to.have.length(1);
      expect(world.logged[0]!.fields.correlationId).to.equal(id);
      expect((world.logged[0]!.fields.error as Error).message).to.equal(
        'database password is hunter2',
      );
    });
  });

  describe('When a store cannot serve (a full disk, a lost server)', () => {
    it('answers 503 with Retry-After and logs the cause for the operator', async () => {
      // the client is only told to retry; an audit filled the disk and found no log line at all
      const r = await call('GET', '/v1/store-down');
      expectEnvelope(r, 503, 'resource-exhausted');
      expect(r.res.headers.get('retry-after')).to.equal('5');
      expect(r.json.error).not.to.include('disk');
      const line = world.logged.find((l) => l.message === 'store unavailable');
      expect(line?.fields).to.include({
        operationId: 'store_down',
        cause: 'commit failed (database or disk is full)',
      });
    });
  });

  describe('When a write returns its log position', () => {
    // DESIGN.md "Read-your-writes": a command's HTTP response is sent only after the projections caught up.
    it('holds the response until waitFor resolves, so the next read sees the write', async () => {
      let release!: () => void;
      world.hold = new Promise<void>((resolve) => {
        release = resolve;
      });
      let answered = false;
      const pending = createWidget({ name: 'late', color: 'blue' }).then((r) => {
        answered = true;
        return r;
      });
      while (world.waited.length === 0) await new Promise((r) => setTimeout(r, 5));
      await new Promise((r) => setTimeout(r, 50));
      expect(answered).to.equal(false);
      expect(world.waited).to.deep.equal([1n]);
      release();
      expect((await pending).res.status).to.equal(201);
      const read = await call('GET', '/v1/shops/acme/widgets/w1', { headers: MEMBER });
      expect(read.json.name).to.equal('late');
    });
  });

  describe('When a cursor comes back', () => {
    // DESIGN.md "HTTP": "Cursors are opaque (signed or encoded) ... rejected with 400 when tampered with."
    it('walks pages with it and rejects an edited or foreign cursor with 400', async () => {
      for (const name of ['a', 'b', 'c']) await createWidget({ name, color: 'green' });
      const first = await call('GET', '/v1/shops/acme/widgets?pageSize=2', { headers: MEMBER });
      const cursor: string = first.json.nextCursor;
      expect(cursor).to.be.a('string');
      const second = await call(
        'GET',
        `/v1/shops/acme/widgets?pageSize=2&cursor=${encodeURIComponent(cursor)}`,
        { headers: MEMBER },
      );
      expect(second.json.items.map((w: { name: string }) => w.name)).to.deep.equal(['c']);
      expect(second.json.nextCursor).to.equal(null);

      const [payload, signature] = cursor.split('.');
      const forged = `${Buffer.from('{"at":0}').toString('base64url')}.${signature}`;
      for (const bad of [forged, `${payload}.${signature!.slice(1)}`, 'garbage', `${payload}`]) {
        const r = await call('GET', `/v1/shops/acme/widgets?cursor=${encodeURIComponent(bad)}`, {
          headers: MEMBER,
        });
        expectEnvelope(r, 400, 'invalid-argument');
        expect(r.json.error).to.match(/^cursor is not valid/);
      }
      const foreign = await call(
        'GET',
        `/v1/shops/other/widgets?cursor=${encodeURIComponent(cursor)}`,
        { headers: MEMBER },
      );
      expectEnvelope(foreign, 400, 'invalid-argument');
    });
  });
});
