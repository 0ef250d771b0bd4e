import type { Server } from 'node:http';
import { expect } from 'chai';
import { notesEnvelope } from '../../src/http/registry.js';
import {
  appOf,
  close,
  listen,
  newWorld,
  type TinyWorld,
  tinyHttp,
} from './support/tiny-service.js';

const ADMIN = { authorization: 'Bearer admin' };
const JSON_ADMIN = { ...ADMIN, 'content-type': 'application/json' };
const WIDGET = JSON.stringify({ name: 'n', color: 'red' });

describe('Operation registry over HTTP (notes envelope)', () => {
  let world: TinyWorld;
  let server: Server;
  let base: string;

  beforeEach(async () => {
    world = newWorld();
    ({ server, base } = await listen(appOf(tinyHttp(world, notesEnvelope(), '/docs/json'))));
  });
  afterEach(() => close(server));

  async function call(
    method: string,
    path: string,
    headers: Record<string, string> = {},
    body?: string,
  ) {
    const res = await fetch(base + path, { method, headers, body });
    const text = await res.text();
    return { res, text, json: text ? JSON.parse(text) : undefined };
  }

  /** spec 001 "Errors": "Errors are JSON {error: string} where the string is a message, with the matching HTTP status." */
  function expectError(r: { res: Response; json: unknown }, status: number) {
    expect(r.res.status).to.equal(status);
    expect(r.res.headers.get('content-type')).to.match(/^application\/json/);
    expect(Object.keys(r.json as object)).to.deep.equal(['error']);
    expect((r.json as { error: string }).error).to.be.a('string').and.not.empty;
  }

  describe('When requests fail', () => {
    it('answers validation failures 400 {error}', async () => {
      const r = await call('GET', '/v1/shops/acme/widgets?pageSize=201', ADMIN);
      expectError(r, 400);
      expect(r.json.error).to.equal('pageSize must be at most 200');
    });
    // spec 001 "Errors": "A missing or expired token gives 401."
    it('answers a missing token 401 {error} with WWW-Authenticate', async () => {
      const r = await call('GET', '/v1/shops/acme/widgets');
      expectError(r, 401);
      expect(r.res.headers.get('www-authenticate')).to.equal('Bearer realm="tiny"');
    });
    it('answers transport problems with their precise statuses', async () => {
      expectError(
        await call(
          'POST',
          '/v1/shops/acme/widgets',
          { ...ADMIN, 'content-type': 'text/plain' },
          WIDGET,
        ),
        415,
      );
      const big = JSON.stringify({ name: 'n', color: 'red', pad: 'x'.repeat(5000) });
      expectError(await call('POST', '/v1/shops/acme/widgets', JSON_ADMIN, big), 413);
      const wrongMethod = await call('PATCH', '/v1/shops/acme');
      expectError(wrongMethod, 405);
      expect(wrongMethod.res.headers.get('allow')).to.equal('DELETE');
      expectError(await call('GET', '/v1/notes-nowhere'), 404);
      expectError(await call('POST', '/v1/shops/acme/widgets', JSON_ADMIN, '{oops'), 400);
    });
    it('answers an internal error 500 {error} without details', async () => {
      const r = await call('GET', '/v1/explode');
      expectError(r, 500);
      expect(r.text).not.to.contain('hunter2');
    });
  });

  describe('When a client sends If-Match', () => {
    // issue 6: "`ETag` on note reads and `If-Match` on PUT/DELETE answering 412 on a lost update"
    it('accepts the current ETag and answers 412 for a stale one', async () => {
      const first = await call('POST', '/v1/shops/acme/widgets', JSON_ADMIN, WIDGET);
      expect(first.res.status).to.equal(201);
      const read = await call('GET', `/v1/shops/acme/widgets/${first.json.id}`, ADMIN);
      const etag = read.res.headers.get('etag')!;
      expect(etag).to.equal('"1"');
      const fresh = await call(
        'POST',
        '/v1/shops/acme/widgets',
        { ...JSON_ADMIN, 'if-match': etag },
        WIDGET,
      );
      expect(fresh.res.status).to.equal(201);
      const stale = await call(
        'POST',
        '/v1/shops/acme/widgets',
        { ...JSON_ADMIN, 'if-match': etag },
        WIDGET,
      );
      expectError(stale, 412);
      expect(stale.json.error).to.match(/changed since it was read/);
      expect(world.log).to.have.length(2);
    });
  });

  describe('When the reference is requested', () => {
    // spec 001: "Interactive reference at /docs; machine-readable OpenAPI 3.1 description at /docs/json."
    it('serves the JSON at /docs/json with the {error} schema and the page at /docs', async () => {
      const doc = (await call('GET', '/docs/json')).json;
      expect(doc.openapi).to.equal('3.1.0');
      expect(doc.components.schemas.Error.required).to.deep.equal(['error']);
      const page = await fetch(`${base}/docs`);
      expect(page.headers.get('content-type')).to.match(/^text\/html/);
      expect(await (await fetch(`${base}/docs/swagger-ui-init.js`)).text()).to.contain(
        '"/docs/json"',
      );
    });
  });

  describe('When an operation succeeds with 204', () => {
    // spec 001 "Conventions": "DELETE answers 204 with no body."
    it('sends no body', async () => {
      const r = await call('DELETE', '/v1/shops/acme', ADMIN);
      expect(r.res.status).to.equal(204);
      expect(r.text).to.equal('');
    });
  });
});
