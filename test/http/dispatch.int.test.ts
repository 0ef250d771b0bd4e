/**
 * The single operation dispatcher must route exactly as the Express 5 routes it replaced (one
 * route per operation, then `router.all` per path for the wrong-method answer): same operation,
 * same decoded params and query, same 400 for a malformed escape, same fall-through for unknown
 * paths — both as Express middleware and as the front that serves operations before Express.
 */
import type { AddressInfo } from 'node:net';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { expect } from 'chai';
import express, { type Request, type Response, Router } from 'express';
import { createDispatcher, type RouteHandler } from '../../src/http/dispatch.js';
import type { RouteEntry } from '../../src/http/paths.js';

const ROUTES: RouteEntry[] = [
  ['search', 'get', '/v1/shops/{shop}/widgets/search'],
  ['list', 'get', '/v1/shops/{shop}/widgets'],
  ['create', 'post', '/v1/shops/{shop}/widgets'],
  ['get', 'get', '/v1/shops/{shop}/widgets/{id}'],
  ['patch', 'patch', '/v1/shops/{shop}/widgets/{id}'],
  ['status', 'post', '/v1/shops/{shop}/widgets/{id}/status'],
  ['shop', 'get', '/v1/shops/{shop}'],
  ['root', 'get', '/v1/me'],
].map(([operationId, method, path]) => ({
  operationId: operationId!,
  method: method as RouteEntry['method'],
  path: path!,
  expressPath: path!.replace(/\{([A-Za-z_]+)\}/g, ':$1'),
}));

function answer(res: ServerResponse, body: unknown) {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(body));
}

/** What the Express routes saw ... */
function expressEcho(route: RouteEntry) {
  return async (req: Request, res: Response) => {
    const route_ = req.route as { path?: string } | undefined;
    answer(res, {
      op: route.operationId,
      params: req.params,
      query: req.query,
      route: route_?.path,
    });
  };
}

/** ... and what the dispatcher hands its handlers. */
function echo(route: RouteEntry): RouteHandler {
  return async (_req, res, { params, query }) => {
    answer(res, { op: route.operationId, params, query, route: route.expressPath });
  };
}

function withFallback(app: express.Express): express.Express {
  app.use((req, res) => {
    res.statusCode = 404;
    answer(res, { fallthrough: req.path });
  });
  app.use(
    (err: { status?: number; message: string }, _req: Request, res: Response, _next: unknown) => {
      res.statusCode = err.status ?? 500;
      answer(res, { error: err.message });
    },
  );
  return app;
}

function wrongMethod(req: Request, res: Response, allow: string) {
  res.statusCode = 405;
  answer(res, { allow, method: req.method, params: req.params });
}

function viaExpressRoutes(): express.Express {
  const router = Router();
  for (const route of ROUTES) router[route.method](route.expressPath, expressEcho(route));
  const allowed = new Map<string, Set<string>>();
  for (const route of ROUTES) {
    const methods = allowed.get(route.expressPath) ?? new Set<string>();
    methods.add(route.method.toUpperCase());
    if (route.method === 'get') methods.add('HEAD');
    allowed.set(route.expressPath, methods);
  }
  for (const [path, methods] of allowed) {
    router.all(path, (req, res) => wrongMethod(req, res, [...methods].join(', ')));
  }
  const app = express();
  app.use(router);
  return withFallback(app);
}

function viaDispatcher(): express.Express {
  const router = Router();
  router.use(createDispatcher(ROUTES, echo, wrongMethod).middleware);
  const app = express();
  app.use(router);
  return withFallback(app);
}

/** The front before the same app; counts the requests it served itself. */
function viaFront(served: { count: number }) {
  const dispatcher = createDispatcher(ROUTES, echo, wrongMethod);
  const router = Router();
  router.use(dispatcher.middleware);
  const app = withFallback(express().use(router));
  return createServer((req, res) => {
    if (dispatcher.front(req, res)) served.count++;
    else app(req, res);
  });
}

async function listen(app: express.Express | Server): Promise<{ server: Server; base: string }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const REQUESTS: [string, string][] = [
  ['GET', '/v1/shops/acme/widgets'],
  ['GET', '/v1/shops/acme/widgets/'],
  ['GET', '/v1/shops/acme/widgets//'],
  ['GET', '/V1/Shops/acme/WIDGETS'],
  ['GET', '/v1/shops/acme/widgets/search'],
  ['GET', '/v1/shops/acme/widgets/Search'],
  ['GET', '/v1/shops/acme/widgets/w-1'],
  ['GET', '/v1/shops/a%20c%C3%A9/widgets/w%2F1'],
  ['GET', '/v1/shops/acme/widgets/%E0%A4%A'],
  ['GET', '/v1/shops//widgets'],
  ['GET', '/v1/shops/acme/widgets/w-1/status'],
  ['POST', '/v1/shops/acme/widgets/w-1/status'],
  ['POST', '/v1/shops/acme/widgets/search'],
  ['DELETE', '/v1/shops/acme/widgets/w-1'],
  ['PATCH', '/v1/shops/acme/widgets/w-1?x=1'],
  ['GET', '/v1/shops/acme/widgets?status=new&status=planned&q=a%20b+c&empty=&flag'],
  ['GET', '/v1/shops/acme/widgets?pageSize=7&cursor=abc%3D%3D&x[y]=1'],
  ['GET', '/v1/shops/acme/widgets?'],
  ['OPTIONS', '/v1/shops/acme'],
  ['HEAD', '/v1/shops/acme'],
  ['GET', '/v1/me'],
  ['GET', '/v1/me/'],
  ['GET', '/v1/me/x'],
  ['GET', '/v1/shops/acme/gadgets'],
  ['GET', '/'],
  ['GET', '/v1%2Fme'],
];

describe('Operation dispatcher', () => {
  let reference: { server: Server; base: string };
  let dispatcher: { server: Server; base: string };
  let front: { server: Server; base: string };
  const served = { count: 0 };

  before(async () => {
    reference = await listen(viaExpressRoutes());
    dispatcher = await listen(viaDispatcher());
    front = await listen(viaFront(served));
  });
  after(() => {
    reference.server.close();
    dispatcher.server.close();
    front.server.close();
  });

  async function call(base: string, method: string, path: string) {
    const res = await fetch(base + path, { method });
    return { status: res.status, body: await res.text() };
  }

  describe('When any request comes in', () => {
    for (const [method, path] of REQUESTS) {
      it(`routes ${method} ${path} exactly as the per-operation Express routes did`, async () => {
        const expected = await call(reference.base, method, path);
        const actual = await call(dispatcher.base, method, path);
        expect(actual).to.deep.equal(expected);
      });
      it(`routes ${method} ${path} the same with the front before Express`, async () => {
        const expected = await call(reference.base, method, path);
        const actual = await call(front.base, method, path);
        expect(actual).to.deep.equal(expected);
      });
    }
  });

  describe('When an operation request comes to the front', () => {
    it('serves it without Express, and passes everything else on', async () => {
      const before = served.count;
      await call(front.base, 'GET', '/v1/shops/acme/widgets/w-1?x=1');
      expect(served.count, 'an exact operation match').to.equal(before + 1);
      await call(front.base, 'HEAD', '/v1/shops/acme');
      await call(front.base, 'DELETE', '/v1/shops/acme/widgets/w-1');
      await call(front.base, 'GET', '/v1/shops/acme/widgets/%E0%A4%A');
      await call(front.base, 'GET', '/v1/shops/acme/gadgets');
      expect(served.count, 'HEAD, wrong method, bad escape, unknown path').to.equal(before + 1);
    });
  });

  describe('When a path parameter holds a malformed escape', () => {
    it('answers 400 through the error handler', async () => {
      const r = await call(dispatcher.base, 'GET', '/v1/shops/acme/widgets/%E0%A4%A');
      expect(r.status).to.equal(400);
      expect(r.body).to.include('Failed to decode param');
    });
  });
});
