/**
 * src/platform/health-metrics.ts: `projector_lag_events` — "events of the log a projector has
 * not applied yet" — takes the count /readyz shows, the cap for "10000+"; and one scrape reads
 * the projections' status once for both projector gauges (each status is a read of the log).
 */
import { expect } from 'chai';
import express from 'express';
import { healthRouter } from '../../src/platform/health.js';
import { observeProjections } from '../../src/platform/health-metrics.js';
import { boundedProjections } from '../../src/platform/health-report.js';
import type { HealthReport } from '../../src/platform/service.js';
import { createMetrics } from '../../src/platform/metrics.js';

describe('When Prometheus scrapes the projector gauges', () => {
  it('exports the lag as a count (the cap for "10000+") from one status call per scrape', async () => {
    const metrics = createMetrics();
    let calls = 0;
    observeProjections(
      metrics,
      boundedProjections(async () => {
        calls++;
        return {
          head: '40',
          projectors: [
            { name: 'items', checkpoint: '37', lag: '3' },
            { name: 'audit', checkpoint: '0', lag: '10000+' },
          ],
        };
      }),
    );
    const text = await metrics.registry.metrics();
    expect(text).to.match(/^projector_lag_events\{projector="items"\} 3$/m);
    expect(text).to.match(/^projector_lag_events\{projector="audit"\} 10000$/m);
    expect(text).to.match(/^projector_checkpoint_position\{projector="items"\} 37$/m);
    expect(calls).to.equal(1);
    await metrics.registry.metrics();
    expect(calls, 'a second scrape reads again').to.equal(2);
  });
});

describe('When the event store does not say where its head is in time', () => {
  const never = () => new Promise<HealthReport['projections']>(() => {});

  it('answers the health check with why, within the deadline, from one read however many ask', async () => {
    // split-deployment audit: /readyz and /metrics hung for minutes while the store was slow
    let reads = 0;
    const status = boundedProjections(() => {
      reads++;
      return never();
    }, 50);
    const started = Date.now();
    const answers = await Promise.allSettled([status(), status(), status()]);
    expect(Date.now() - started).to.be.below(1_000);
    for (const answer of answers) {
      expect(answer.status).to.equal('rejected');
      expect(String((answer as PromiseRejectedResult).reason)).to.match(/did not tell its head/);
    }
    expect(reads).to.equal(1);
  });

  it('leaves the projector gauges out of a scrape instead of failing it', async () => {
    const metrics = createMetrics();
    observeProjections(metrics, boundedProjections(never, 50));
    const text = await metrics.registry.metrics();
    expect(text).to.not.match(/^projector_lag_events\{/m);
    expect(text).to.match(/^process_cpu_user_seconds_total /m);
  });

  /** /readyz of a report that fails, as an operator (or not) reads it */
  const failingReadyz = async (operator: boolean) => {
    const failing = () => Promise.reject(new Error('store too slow: mongodb://10.0.0.5'));
    const app = express().use(healthRouter(failing, () => operator));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as { port: number };
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      return { status: res.status, body: await res.json() };
    } finally {
      server.close();
    }
  };

  it('answers /readyz 503 with the reason, in the shape of a degraded report', async () => {
    expect(await failingReadyz(true)).to.deep.equal({
      status: 503,
      body: { status: 'degraded', reasons: ['store too slow: mongodb://10.0.0.5'] },
    });
  });

  it('answers anyone but an operator the same 503 with the status alone, not why', async () => {
    // README: the report goes to operators only ("the `METRICS_TOKEN` rule"); a reason quotes a
    // store's error, which may name where the store lives
    expect(await failingReadyz(false)).to.deep.equal({
      status: 503,
      body: { status: 'degraded' },
    });
  });
});
