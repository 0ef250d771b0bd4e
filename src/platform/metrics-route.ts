/**
 * `/metrics` in Prometheus text format. Loopback clients (the node's own scraper, an operator on
 * the machine) read it freely unless the service sits behind a proxy (TRUST_PROXY: then every
 * request comes from the proxy's address); anyone else needs `Authorization: Bearer
 * <METRICS_TOKEN>`, and without a configured token the route does not exist for them (404).
 */
import { timingSafeEqual } from 'node:crypto';
import { Router } from 'express';
import type { Metrics } from './metrics.js';

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

export function metricsRouter(
  metrics: Metrics,
  options: { token: string | undefined; behindProxy: boolean },
): Router {
  const { token, behindProxy } = options;
  const expected = token ? Buffer.from(`Bearer ${token}`) : undefined;
  const router = Router();
  router.get('/metrics', async (req, res, next) => {
    const local = !behindProxy && LOOPBACK.test(req.socket.remoteAddress ?? '');
    const given = Buffer.from(req.headers.authorization ?? '');
    const allowed =
      local ||
      (expected !== undefined &&
        given.length === expected.length &&
        timingSafeEqual(given, expected));
    if (!allowed) {
      next();
      return;
    }
    res.setHeader('Content-Type', metrics.registry.contentType);
    res.end(await metrics.registry.metrics());
  });
  return router;
}
