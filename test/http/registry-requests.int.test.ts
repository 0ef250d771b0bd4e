/**
 * The operation registry over HTTP (feedback envelope): valid requests, query values at and
 * past their bounds, unknown routes and methods, read-your-writes and cursors.
 */
import { expect } from 'chai';
import { ADMIN, MEMBER, expectEnvelope, tinyFeedbackPerTest } from './support/feedback-calls.js';
import type { TinyWorld } from './support/tiny-service.js';

describe('Operation registry over HTTP (feedback envelope)', () => {
  const tiny = tinyFeedbackPerTest();
  const { call, createWidget } = tiny;
  let world: TinyWorld;
  beforeEach(() => {
    world = tiny.world;
  });

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

    // RFC 9110 §13.1.1: the server "MUST NOT perform the requested method if a received
    // If-Match condition evaluates to false"; a write that does not declare how it honours the
    // refusal (`honoursIfMatch`) is refused before its handler, so it can never write under one
    it('refuses a write without ETag that declares no honoursIfMatch 412 before its handler runs', async () => {
      const r = await call('DELETE', '/v1/shops/acme', {
        headers: { ...ADMIN, 'if-match': '"abc"' },
      });
      expect(r.res.status, r.text).to.equal(412);
      expect(world.deleted).to.deep.equal([]);
      expect((await call('DELETE', '/v1/shops/acme', { headers: ADMIN })).res.status).to.equal(204);
      expect(world.deleted).to.deep.equal(['acme']);
    });

    // RFC 9110 §13.1.2: If-None-Match `*` "is false if the origin server has a current
    // representation for the target resource", and a write under a false one "MUST NOT" be
    // performed (412); a resource without ETag matches no listed tag, so a list holds
    it('refuses a write without ETag under If-None-Match: * 412 before its handler runs; a list of tags holds', async () => {
      const r = await call('DELETE', '/v1/shops/acme', {
        headers: { ...ADMIN, 'if-none-match': '*' },
      });
      expect(r.res.status, r.text).to.equal(412);
      expect(JSON.parse(r.text).code).to.equal('failed-precondition');
      expect(world.deleted).to.deep.equal([]);
      const listed = await call('DELETE', '/v1/shops/acme', {
        headers: { ...ADMIN, 'if-none-match': '"abc", W/"1"' },
      });
      expect(listed.res.status, listed.text).to.equal(204);
      expect(world.deleted).to.deep.equal(['acme']);
    });

    it('matches a literal segment before a parameter (search is not an id)', async () => {
      const r = await call('GET', '/v1/shops/acme/widgets/search?q=bo', { headers: MEMBER });
      expect(r.res.status).to.equal(200);
      expect(r.json).to.deep.equal({ hits: [] });
    });

    it('sends its own correlation id on every answer, also when the client sent one', async () => {
      // README: the correlation id is the server's, minted per request; a client's is kept
      // beside it, never taken, or a caller could make its changes look like another request's
      const mine = await call('GET', '/v1/shops/acme/widgets', {
        headers: { ...MEMBER, 'x-correlation-id': 'abc-123' },
      });
      expect(mine.res.headers.get('x-correlation-id')).to.match(/^[0-9a-f-]{36}$/);
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
      const r = await call('DELETE', '/v1/shops/acme?x=1', { headers: MEMBER });
      expectEnvelope(r, 400, 'invalid-argument');
      expect(r.json.error).to.equal('unknown query parameter "x"; it takes none');
    });
    it('ignores query parameters on a read that takes none and declares no 400', async () => {
      // feedback spec Errors: "resolve_item and who_needs_followup declare 401, 403, 404 (no
      // 400)"; such a read has no filter to misspell, and may not answer what it does not declare
      const r = await call('GET', '/v1/shops/acme/widgets/w1?x=1', { headers: MEMBER });
      expectEnvelope(r, 404, 'not-found');
      expect(r.json.error).to.equal('widget w1 not found');
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
        expect(r.json.error).to.match(/^cursor is not one this listing issued/);
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
