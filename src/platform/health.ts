import { Router } from 'express';
import type { HealthReport } from './service.js';

/**
 * `/healthz`: the process is up (liveness). `/readyz`: the stores, projection lag and
 * components such as the embedder; 503 while degraded (readiness).
 */
export function healthRouter(health: () => Promise<HealthReport>): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    try {
      const report = await health();
      res.status(report.status === 'ok' ? 200 : 503).json(report);
    } catch (error) {
      res.status(503).json({ status: 'degraded', error: (error as Error).message });
    }
  });
  return router;
}
