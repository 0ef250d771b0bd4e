/**
 * The HTTP server of one service: its request listener is attached before the port opens, so a
 * request that arrives while the service is still booting waits for the app instead of hanging
 * unanswered; on stop it finishes the requests in flight (bounded) before closing connections.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Config } from '../config/schema.js';
import type { ServedApp } from './service.js';

export interface BootingServer {
  server: Server;
  /** hand the requests (the waiting ones first) to the service's app */
  serve(served: ServedApp): void;
}

/**
 * What a connection may cost. Node's defaults close neither a connection that never sends a
 * byte nor one whose client stops reading a large answer (its bytes wait in memory), and take
 * any number of connections: an audit held 2.7 GB with 100 sockets that did not read.
 */
export interface ConnectionBounds {
  /** a connection on which nothing moves (sent or received) for this long is closed */
  idleTimeoutMs: number;
  /** most connections open at once; past it new ones are closed at once */
  maxConnections: number;
}

/** The bounds configured (HTTP_IDLE_TIMEOUT_MS, HTTP_MAX_CONNECTIONS). */
export function connectionBounds(config: Config): ConnectionBounds {
  return {
    // a write's answer may wait PROJECTION_WAIT_MS for its read models without a byte moving
    idleTimeoutMs: Math.max(config.HTTP_IDLE_TIMEOUT_MS, config.PROJECTION_WAIT_MS + 1000),
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
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve({
        server,
        serve({ app, onClientError }) {
          server.off('request', hold);
          server.on('request', app);
          server.on('clientError', onClientError);
          for (const [req, res] of waiting.splice(0)) app(req, res);
        },
      });
    });
  });
}

/**
 * Stop accepting, let the requests in flight finish for up to `graceMs`, then cut whatever is
 * left. Idle keep-alive connections close at once.
 */
export function closeGracefully(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), graceMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}
