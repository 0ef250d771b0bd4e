/**
 * The HTTP server of one service: its request listener is attached before the port opens, so a
 * request that arrives while the service is still booting waits for the app instead of hanging
 * unanswered; on stop it finishes the requests in flight (bounded) before closing connections.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { ServedApp } from './service.js';

export interface BootingServer {
  server: Server;
  /** hand the requests (the waiting ones first) to the service's app */
  serve(served: ServedApp): void;
}

export function listenWhileBooting(port: number, host: string): Promise<BootingServer> {
  const waiting: [IncomingMessage, ServerResponse][] = [];
  const hold = (req: IncomingMessage, res: ServerResponse) => void waiting.push([req, res]);
  const server = createServer(hold);
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
