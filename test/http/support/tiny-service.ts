/**
 * A tiny service built on the registry, used by the HTTP tests: shops with widgets.
 * Writes go to an "event log" array; the "read model" only catches up inside waitFor, so a test
 * can see whether the response really waited (read-your-writes).
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { z } from 'zod';
import { NotFound, PermissionDenied, Unauthenticated } from '../../../commands/shared/errors.js';
import { EventStoreUnavailableError } from '../../../src/eventstore/types.js';
import {
  assertIfMatch,
  createCursorCodec,
  createServiceHttp,
  cursorParam,
  type ErrorEnvelope,
  etagFor,
  type HttpLogger,
  operationsFor,
  pageOf,
  pageSizeParam,
  type ServiceHttp,
} from '../../../src/http/registry.js';

interface Caller {
  name: string;
  admin: boolean;
}
type Tiny = { principal: Caller; meta: { admin?: boolean }; access: { shop: string } };
const defineOp = operationsFor<Tiny>();

const Shop = z.string().regex(/^[a-z]{3,10}$/);
const Color = z.enum(['red', 'green', 'blue']);
const Widget = z
  .object({ id: z.string(), name: z.string(), color: Color, tags: z.array(z.string()) })
  .meta({ id: 'Widget' });
type WidgetDoc = z.infer<typeof Widget>;

export interface TinyWorld {
  log: { position: bigint; widget: WidgetDoc }[];
  readModel: WidgetDoc[];
  /** waitFor calls; a test may hold them with `hold` */
  waited: bigint[];
  hold?: Promise<void>;
  logged: { message: string; fields: Record<string, unknown> }[];
  revision: number;
  /** shops delete_shop's handler was run for (it declares no `honoursIfMatch`) */
  deleted: string[];
}

export function tinyOperations(world: TinyWorld) {
  const cursors = createCursorCodec('test-secret-of-sufficient-length');
  const listWidgets = defineOp({
    id: 'list_widgets',
    method: 'get',
    path: '/v1/shops/{shop}/widgets',
    summary: 'List widgets',
    params: z.object({ shop: Shop }),
    query: z.object({
      pageSize: pageSizeParam({ max: 200, default: 50 }),
      color: Color.optional(),
      cursor: cursorParam(),
      reverse: z.boolean().default(false),
    }),
    response: pageOf(Widget),
    errors: [400, 401, 403, 404],
    auth: 'bearer',
    async handler({ query, params }) {
      const start = query.cursor
        ? cursors.decodeAs(query.cursor, z.object({ at: z.number().int() }), { scope: params.shop })
            .at
        : 0;
      let all = world.readModel.filter((w) => !query.color || w.color === query.color);
      if (query.reverse) all = [...all].reverse();
      const items = all.slice(start, start + query.pageSize);
      const end = start + items.length;
      const nextCursor =
        end < all.length ? cursors.encode({ at: end }, { scope: params.shop }) : null;
      return { body: { items, nextCursor }, headers: { 'x-page-size': String(query.pageSize) } };
    },
  });
  const searchWidgets = defineOp({
    id: 'search_widgets',
    method: 'get',
    path: '/v1/shops/{shop}/widgets/search',
    summary: 'Search widgets (a literal segment next to {id})',
    params: z.object({ shop: Shop }),
    query: z.object({ q: z.string().min(1).max(50) }),
    response: z.object({ hits: z.array(Widget) }),
    errors: [400, 401],
    auth: 'bearer',
    async handler({ query }) {
      return { body: { hits: world.readModel.filter((w) => w.name.includes(query.q)) } };
    },
  });
  const getWidget = defineOp({
    id: 'get_widget',
    versioned: true,
    method: 'get',
    path: '/v1/shops/{shop}/widgets/{id}',
    summary: 'Get a widget',
    params: z.object({ shop: Shop, id: z.string().min(1) }),
    response: Widget,
    errors: [401, 404],
    auth: 'bearer',
    async handler({ params }) {
      const widget = world.readModel.find((w) => w.id === params.id);
      if (!widget) throw new NotFound(`widget ${params.id} not found`);
      return { body: widget, headers: { ETag: etagFor(world.revision) } };
    },
  });
  // versioned: its If-Match names the shop's revision (an operation that is not versioned has
  // no ETag, so the registry refuses any If-Match but `*` before the handler runs)
  const createWidget = defineOp({
    id: 'create_widget',
    versioned: true,
    method: 'post',
    path: '/v1/shops/{shop}/widgets',
    summary: 'Create a widget',
    params: z.object({ shop: Shop }),
    body: z
      .object({
        name: z.string().min(1).max(20),
        color: Color,
        tags: z.array(z.string().min(1).max(10)).max(3).optional(),
      })
      .strict(),
    response: z.object({ id: z.string() }),
    successStatus: 201,
    errors: [400, 401, 403, 404],
    auth: 'bearer',
    async handler({ params, body, ifMatch }) {
      assertIfMatch(ifMatch, world.revision, 'shop');
      const widget = {
        id: `w${world.log.length + 1}`,
        name: body.name,
        color: body.color,
        tags: body.tags ?? [],
      };
      const position = BigInt(world.log.length + 1);
      world.log.push({ position, widget });
      world.revision += 1;
      const headers = {
        ETag: etagFor(world.revision),
        Location: `/v1/shops/${params.shop}/widgets/${widget.id}`,
      };
      return { body: { id: widget.id }, position, headers };
    },
  });
  const deleteShop = defineOp({
    id: 'delete_shop',
    method: 'delete',
    path: '/v1/shops/{shop}',
    summary: 'Delete a shop',
    extraDescription: 'Requires the admin role.',
    params: z.object({ shop: Shop }),
    successStatus: 204,
    errors: [401, 403, 404],
    auth: 'bearer',
    meta: { admin: true },
    async handler(ctx) {
      world.deleted.push(ctx.params.shop);
      return {};
    },
  });
  const explode = defineOp({
    id: 'explode',
    method: 'get',
    path: '/v1/explode',
    summary: 'Fails with an unexpected error',
    response: z.object({}),
    errors: [],
    auth: 'none',
    async handler() {
      throw new Error('database password is hunter2');
    },
  });
  const storeDown = defineOp({
    id: 'store_down',
    method: 'get',
    path: '/v1/store-down',
    summary: 'Fails because the event store cannot commit',
    response: z.object({}),
    errors: [],
    auth: 'none',
    async handler() {
      throw new EventStoreUnavailableError('commit failed (database or disk is full)');
    },
  });
  // get_widget before search_widgets on purpose: the registry, not declaration order, must rank them.
  return [listWidgets, getWidget, searchWidgets, createWidget, deleteShop, explode, storeDown];
}

export function newWorld(): TinyWorld {
  return { log: [], readModel: [], waited: [], logged: [], revision: 0, deleted: [] };
}

export function tinyHttp(
  world: TinyWorld,
  envelope: ErrorEnvelope,
  openapiPath = '/v1/openapi.json',
) {
  const log = (message: string, fields: Record<string, unknown>) => {
    world.logged.push({ message, fields });
  };
  const logger: HttpLogger = { warn: log, error: log };
  return createServiceHttp<Tiny>({
    title: 'Tiny',
    version: '1.0.0',
    operations: tinyOperations(world),
    envelope,
    async authenticate(req) {
      const header = req.headers.authorization;
      if (header === 'Bearer admin') return { name: 'admin', admin: true };
      if (header === 'Bearer member') return { name: 'member', admin: false };
      throw new Unauthenticated(header ? 'the token is not valid' : 'a bearer token is required');
    },
    challenge: (req) =>
      req.headers.authorization
        ? 'Bearer realm="tiny", error="invalid_token"'
        : 'Bearer realm="tiny"',
    async authorize(op, principal, ctx) {
      const shop = String(ctx.params.shop ?? '');
      if (shop === 'hidden') throw new NotFound('shop not found');
      if (op.meta.admin && !principal?.admin)
        throw new PermissionDenied('this operation needs the admin role');
      return { shop };
    },
    async waitFor(position) {
      world.waited.push(position);
      await world.hold;
      for (const entry of world.log) {
        if (entry.position <= position && !world.readModel.some((w) => w.id === entry.widget.id)) {
          world.readModel.push(entry.widget);
        }
      }
    },
    openapiPath,
    docsPath: '/docs',
    bodyLimit: '2kb',
    logger,
    validateResponses: true,
  });
}

/** The service's Express app as a service builds it: `before` middleware, the registry, the fallback. */
export function appOf(
  http: ServiceHttp<Tiny>,
  before?: (app: express.Express) => void,
): express.Express & { onClientError?: ServiceHttp<Tiny>['onClientError'] } {
  const app = express();
  app.disable('x-powered-by');
  before?.(app);
  app.use(http.middleware);
  app.use(http.fallback);
  return Object.assign(app, { onClientError: http.onClientError });
}

export async function listen(
  app: express.Express & { onClientError?: ServiceHttp<Tiny>['onClientError'] },
): Promise<{ base: string; server: Server }> {
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  if (app.onClientError) server.on('clientError', app.onClientError);
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, server };
}

export function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}
