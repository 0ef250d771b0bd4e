/**
 * src/platform/health-metrics.ts: `projector_lag_events` — "events of the log a projector has
 * not applied yet" — takes the count /readyz shows, the cap for "10000+"; and one scrape reads
 * the projections' status once for both projector gauges (each status is a read of the log).
 */
import { expect } from 'chai';
import { observeProjections } from '../../src/platform/health-metrics.js';
import { createMetrics } from '../../src/platform/metrics.js';

describe('When Prometheus scrapes the projector gauges', () => {
  it('exports the lag as a count (the cap for "10000+") from one status call per scrape', async () => {
    const metrics = createMetrics();
    let calls = 0;
    observeProjections(metrics, async () => {
      calls++;
      return {
        head: '40',
        projectors: [
          { name: 'items', checkpoint: '37', lag: '3' },
          { name: 'audit', checkpoint: '0', lag: '10000+' },
        ],
      };
    });
    const text = await metrics.registry.metrics();
    expect(text).to.match(/^projector_lag_events\{projector="items"\} 3$/m);
    expect(text).to.match(/^projector_lag_events\{projector="audit"\} 10000$/m);
    expect(text).to.match(/^projector_checkpoint_position\{projector="items"\} 37$/m);
    expect(calls).to.equal(1);
    await metrics.registry.metrics();
    expect(calls, 'a second scrape reads again').to.equal(2);
  });
});
