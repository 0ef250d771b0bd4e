import { Router } from 'express';
import type { OperatorCheck } from './operator-access.js';
import type { HealthReport } from './service.js';

/**
 * `/healthz`: the process is up (liveness). `/readyz`: the stores, projection lag and
 * components such as the embedder; 503 while degraded (readiness). The report is an operator's
 * (operator-access.ts: it holds the log position every tenant's writes move, the stores' errors);
 * anyone else — an orchestrator's probe needs no more — reads the status alone, with the same
 * status code.
 */
export function healthRouter(
  health: () => Promise<HealthReport>,
  isOperator: OperatorCheck,
): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (req, res) => {
    let report: { status: string; [detail: string]: unknown };
    try {
      report = await health();
    } catch (error) {
      // the same shape as a degraded report: why, under `reasons`
      report = { status: 'degraded', reasons: [(error as Error).message] };
    }
    res
      .status(report.status === 'ok' ? 200 : 503)
      .json(isOperator(req) ? report : { status: report.status });
  });
  return router;
}

/**
 * Several components may report under one key: in one process both services report `search`
 * (one embedder, each service its own indexes). Their values are merged — objects key by key, all
 * the way down; for anything else the later report wins — so neither hides the other.
 */
export function mergeReports(earlier: unknown, later: unknown): unknown {
  if (!isPlainObject(earlier) || !isPlainObject(later)) return later;
  const merged: Record<string, unknown> = { ...earlier };
  for (const [key, value] of Object.entries(later)) merged[key] = mergeReports(merged[key], value);
  return merged;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
