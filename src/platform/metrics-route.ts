/**
 * `/metrics` in Prometheus text format, for operators only (operator-access.ts): to anyone else,
 * and to everyone but loopback clients without a configured METRICS_TOKEN, the route does not
 * exist (404).
 */
import { Router } from 'express';
import type { Metrics } from './metrics.js';
import type { OperatorCheck } from './operator-access.js';

export function metricsRouter(metrics: Metrics, isOperator: OperatorCheck): Router {
  const router = Router();
  router.get('/metrics', async (req, res, next) => {
    if (!isOperator(req)) {
      next();
      return;
    }
    res.setHeader('Content-Type', metrics.registry.contentType);
    res.end(await metrics.registry.metrics());
  });
  return router;
}
