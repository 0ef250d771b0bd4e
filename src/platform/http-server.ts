/**
 * The HTTP server of one service: its request listener is attached before the port opens, so a
 * request that arrives while the service is still booting waits for the app instead of hanging
 * unanswered; on stop it finishes the requests in flight (bounded) before closing connections.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Config } from '../config/schema.js';
import { feedbackEnvelope } from '../http/envelopes.js';
import type { ServedApp } from './service.js';

export interface BootingServer {
  server: Server;
  /** hand the requests (the waiting ones first) to the service's app */
  serve(served: ServedApp): void;
}

/** how a port whose start failed answers the requests it held, and any arriving before it closes */
function refuseUnserved(res: ServerResponse): void {
  const body = JSON.stringify(
    feedbackEnvelope().body('unavailable', 'the service could not start; try again later'),
  );
  res.writeHead(503, { 'content-type': 'application/json', connection: 'close' }).end(body);
}

/** each booting server's refusal, until it serves */
const refusals = new WeakMap<Server, () => void>();

/**
 * A start failed before `server` served (runtime.ts): its waiting requests can never be, so
 * they are answered 503 now rather than held through the stop's grace. A server that serves is
 * left alone.
 */
export function refuseWhileBooting(server: Server): void {
  refusals.get(server)?.();
}

/**
 * What a connection may cost. Node's defaults close neither a connection that never sends a
 * byte nor one whose client stops reading a large answer (its bytes wait in memory), and take
 * any number of connections: an audit held 2.7 GB with 100 sockets that did not read.
 */
export interface ConnectionBounds {
  /**
   * a connection on which nothing moves (sent or received) for this long is closed — unless the
   * service is still working on a request of it and nothing waits unsent (see `keepWhileWorking`)
   */
  idleTimeoutMs: number;
  /** most connections open at once; past it new ones are closed at once */
  maxConnections: number;
}

/** The bounds configured (HTTP_IDLE_TIMEOUT_MS, HTTP_MAX_CONNECTIONS). */
export function connectionBounds(config: Config): ConnectionBounds {
  return {
    idleTimeoutMs: config.HTTP_IDLE_TIMEOUT_MS,
    maxConnections: config.HTTP_MAX_CONNECTIONS,
  };
}

export function listenWhileBooting(
  port: number,
  host: string,
  bounds: ConnectionBounds,
): Promise<BootingServer> {
  const waiting: [IncomingMessage, ServerResponse][] = [];
  const hold = (req: IncomingMessage, res: ServerResponse) => void waiting.push([req, res]);
  // a request must arrive whole within the idle bound too (Node's default is 5 minutes, looked
  // at every 30 s): one trickled a byte at a time is answered 408 (respond.ts)
  const server = createServer(
    {
      requestTimeout: bounds.idleTimeoutMs,
      connectionsCheckingInterval: Math.min(30_000, Math.max(100, bounds.idleTimeoutMs / 4)),
    },
    hold,
  );
  server.timeout = bounds.idleTimeoutMs;
  server.maxConnections = bounds.maxConnections;
  keepWhileWorking(server, bounds.idleTimeoutMs);
  refusals.set(server, () => {
    refusals.delete(server);
    server.off('request', hold);
    server.on('request', (_req: IncomingMessage, res: ServerResponse) => refuseUnserved(res));
    for (const [, res] of waiting.splice(0)) refuseUnserved(res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve({
        server,
        serve({ app, onClientError }) {
          refusals.delete(server);
          server.off('request', hold);
          server.on('request', app);
          server.on('clientError', onClientError);
          for (const [req, res] of waiting.splice(0)) app(req, res);
        },
      });
    });
  });
}

/** how many idle bounds a request may be worked on in silence before its connection is cut */
export const WORKING_IDLE_BOUNDS = 10;

/**
 * Idleness is the client's: a connection whose request the service is still working on (an MCP
 * batch of writes each waiting for its read models, say) is not idle for that, as long as no
 * answer waits unsent — a client that stops reading is still cut. A request worked on in silence
 * for WORKING_IDLE_BOUNDS idle bounds is cut all the same: no operation should take that long.
 */
function keepWhileWorking(server: Server, idleTimeoutMs: number): void {
  const working = new WeakMap<Socket, { open: number; since: number }>();
  const inFlight = new Set<ServerResponse>();
  unanswered.set(server, inFlight);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    const work = working.get(socket) ?? { open: 0, since: performance.now() };
    if (work.open === 0) work.since = performance.now();
    work.open += 1;
    working.set(socket, work);
    inFlight.add(res);
    // one listener per request: a second one cost the board page about 5 % (measured)
    res.once('close', () => {
      work.open -= 1;
      inFlight.delete(res);
    });
  });
  server.on('timeout', (socket: Socket) => {
    const work = working.get(socket);
    const silentWork =
      work !== undefined &&
      work.open > 0 &&
      socket.writableLength === 0 &&
      performance.now() - work.since < WORKING_IDLE_BOUNDS * idleTimeoutMs;
    if (silentWork) socket.setTimeout(idleTimeoutMs);
    else socket.destroy();
  });
}

/** the requests of each server not answered yet (their response not closed) */
const unanswered = new WeakMap<Server, Set<ServerResponse>>();
/** requests cut by a stop whose grace ran out: not a client that closed (telemetry.ts) */
const cutAtShutdown = new WeakSet<ServerResponse>();

/** whether the server cut this request at shutdown (its grace ran out) */
export function wasCutAtShutdown(res: ServerResponse): boolean {
  return cutAtShutdown.has(res);
}

/**
 * Stop accepting, let the requests in flight finish for up to `graceMs`, then cut whatever is
 * left. Idle keep-alive connections close at once. Resolves with the number of requests cut.
 */
export function closeGracefully(server: Server, graceMs: number): Promise<number> {
  return new Promise((resolve) => {
    // the cut requests' own 'close' (their access lines) comes after the server's
    const cut: Promise<unknown>[] = [];
    const timer = setTimeout(() => {
      for (const res of unanswered.get(server) ?? []) {
        if (res.writableFinished) continue;
        cutAtShutdown.add(res);
        cut.push(new Promise((closed) => res.once('close', closed)));
      }
      server.closeAllConnections();
    }, graceMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      void Promise.all(cut).then(() => resolve(cut.length));
    });
    server.closeIdleConnections();
  });
}
