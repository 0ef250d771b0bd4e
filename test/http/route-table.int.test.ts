/**
 * The route table must route exactly as the Express 5 routes it replaced (one route per
 * operation, then `router.all` per path for the wrong-method answer): same operation, same
 * decoded params and query, same fall-through for unknown paths. One deliberate difference: a
 * path parameter whose escape does not decode names nothing, so the table reports it as such
 * (the registry answers 404) where Express answered 400.
 */
import type { AddressInfo } from 'node:net';
import type { Server, ServerResponse } from 'node:http';
import { expect } from 'chai';
import express, { type Request, type Response, Router } from 'express';
import type { RouteEntry } from '../../src/http/paths.js';
import { createRouteTable, UndecodableParam } from '../../src/http/route-table.js';

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

/** The table as the one middleware the registry mounts, answering what Express routes answered. */
function viaTable(): express.Express {
  const table = createRouteTable(ROUTES);
  const router = Router();
  router.use((req, res, next) => {
    const match = table.match(req.method, req.path);
    if (!match) return next();
    let params: Record<string, string>;
    try {
      params = table.paramsOf(match);
    } catch (error) {
      expect(error).to.be.instanceOf(UndecodableParam);
      res.statusCode = 400;
      return answer(res, { error: `Failed to decode param` });
    }
    req.params = params;
    if (!match.methodMatches) return wrongMethod(req, res, match.route.allow);
    const route = match.route.entry;
    answer(res, { op: route.operationId, params, query: req.query, route: route.expressPath });
  });
  return withFallback(express().use(router));
}

async function listen(app: express.Express): Promise<{ server: Server; base: string }> {
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

describe('Operation route table', () => {
  let reference: { server: Server; base: string };
  let viaRegistry: { server: Server; base: string };

  before(async () => {
    reference = await listen(viaExpressRoutes());
    viaRegistry = await listen(viaTable());
  });
  after(() => {
    reference.server.close();
    viaRegistry.server.close();
  });

  async function call(base: string, method: string, path: string) {
    const res = await fetch(base + path, { method });
    return { status: res.status, body: await res.text() };
  }

  describe('When any request comes in', () => {
    for (const [method, path] of REQUESTS) {
      it(`routes ${method} ${path} exactly as the per-operation Express routes did`, async () => {
        const expected = await call(reference.base, method, path);
        const actual = await call(viaRegistry.base, method, path);
        if (expected.status === 400) {
          // Express's message names the raw segment; the table reports the same refusal
          expect(expected.body).to.include('Failed to decode param');
          expect(actual.status).to.equal(400);
          return;
        }
        expect(actual).to.deep.equal(expected);
      });
    }
  });
});
