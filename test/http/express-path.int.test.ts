/**
 * DESIGN.md "HTTP": "Express serves every operation. Nothing answers an operation before or
 * beside the Express app, so middleware mounted with `app.use` (CORS, helmet, logging) applies to
 * every operation." Issue 11: "test it with a real middleware (e.g. a header-setting one and cors)".
 */
import type { Server } from 'node:http';
import { connect } from 'node:net';
import { expect } from 'chai';
import cors from 'cors';
import { feedbackEnvelope } from '../../src/http/registry.js';
import {
  appOf,
  close,
  listen,
  newWorld,
  type TinyWorld,
  tinyHttp,
} from './support/tiny-service.js';

describe('Operations served by Express', () => {
  let world: TinyWorld;
  let server: Server;
  let base: string;
  const seen: string[] = [];

  before(async () => {
    world = newWorld();
    const app = appOf(tinyHttp(world, feedbackEnvelope()), (app) => {
      app.use(cors({ origin: 'https://maker.example', exposedHeaders: ['x-page-size'] }));
      app.use((req, res, next) => {
        seen.push(`${req.method} ${req.path}`);
        res.setHeader('x-seen-by-middleware', 'yes');
        next();
      });
    });
    ({ server, base } = await listen(app));
  });
  after(() => close(server));

  describe('When a middleware is mounted with app.use before the operations', () => {
    it('sees a read operation request and its header reaches the answer', async () => {
      const res = await fetch(`${base}/v1/shops/acme/widgets`, {
        headers: { authorization: 'Bearer member', origin: 'https://maker.example' },
      });
      expect(res.status).to.equal(200);
      expect(res.headers.get('x-seen-by-middleware')).to.equal('yes');
      expect(res.headers.get('access-control-allow-origin')).to.equal('https://maker.example');
      expect(res.headers.get('access-control-expose-headers')).to.equal('x-page-size');
      expect(seen).to.include('GET /v1/shops/acme/widgets');
    });

    it('sees a write, its error answers and a CORS preflight', async () => {
      const write = await fetch(`${base}/v1/shops/acme/widgets`, {
        method: 'POST',
        headers: { authorization: 'Bearer admin', 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'nut', color: 'blue', tags: [] }),
      });
      expect(write.status).to.equal(201);
      expect(write.headers.get('x-seen-by-middleware')).to.equal('yes');
      const refused = await fetch(`${base}/v1/shops/acme/widgets`, { method: 'POST' });
      expect(refused.status).to.equal(401);
      expect(refused.headers.get('x-seen-by-middleware')).to.equal('yes');
      const preflight = await fetch(`${base}/v1/shops/acme/widgets`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://maker.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type',
        },
      });
      expect(preflight.status).to.equal(204);
      expect(preflight.headers.get('access-control-allow-methods')).to.include('POST');
    });
  });

  describe('When node:http refuses a request before Express (issue 10 item 13)', () => {
    it('answers oversize headers 431 in the service envelope, not an empty body', async () => {
      const port = new URL(base).port;
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1');
        let text = '';
        socket.on('data', (chunk) => {
          text += chunk;
        });
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
        socket.write(
          `GET /v1/shops/acme/widgets HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
        );
      });
      const [head, body] = raw.split('\r\n\r\n');
      expect(head).to.match(/^HTTP\/1\.1 431 /);
      expect(head).to.match(/content-type: application\/json/i);
      expect(JSON.parse(body!)).to.deep.equal({
        error: 'the request line and headers must not exceed 16 KB',
        code: 'invalid-argument',
      });
    });
  });
});
