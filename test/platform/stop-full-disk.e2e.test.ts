/**
 * A stop while the disk is full. The audit: SIGTERM on a full disk crashed the process with a
 * raw stack trace (`ReadStoreUnavailableError … database or disk is full` thrown by the webhook
 * worker's last save), the steps after it never ran, and the webhook lease was never released:
 * the next start waited "another worker holds the lease". README (Logs, metrics, shutdown):
 * "every step of a stop runs even when one before it fails; each failure is one `stop step
 * failed` line with its cause".
 */
import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { createFeedbackService } from '../../src/feedback/service.js';
import { fillDisk } from '../support/full-disk.js';
import { logLines } from '../support/log-lines.js';
import { startTestRuntime } from '../support/runtime.js';
import { tempDir } from '../support/stores.js';

describe('When a server stops while the disk is full', function () {
  this.timeout(60_000);
  const dir = tempDir('stop-full-');
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('runs every step, logs each failure with its cause and releases the webhook lease', async () => {
    const first = logLines('info');
    const running = await startTestRuntime(
      [createFeedbackService()],
      { DATA_DIR: dir, LOG_LEVEL: 'info' },
      first.logger,
    );
    const health = await fetch(`${running.url('feedback')}/healthz`);
    expect(health.status).to.equal(200);
    fillDisk(running.runtime.stores.readStore);

    const outcome = await running.runtime.stop();
    expect(outcome.failed).to.include('webhook worker');
    expect(outcome.failed).not.to.include('stores');
    expect(outcome.dataMayBeLost).to.equal(true);
    const failure = first.lines.find(
      (l) => l.msg === 'stop step failed' && l.step === 'webhook worker',
    );
    expect(failure, 'no line for the failed step').to.include({ level: 'error' });
    expect(failure!.cause).to.match(/full/);

    // the lease was let go: the next start delivers at once instead of standing by
    const second = logLines('info');
    const again = await startTestRuntime(
      [createFeedbackService()],
      { DATA_DIR: dir, LOG_LEVEL: 'info' },
      second.logger,
    );
    try {
      expect(second.lines.map((l) => l.msg)).to.include('started');
      expect(second.lines.map((l) => l.msg)).not.to.include(
        'webhook worker standing by: another worker holds the lease',
      );
    } finally {
      expect((await again.runtime.stop()).failed).to.deep.equal([]);
    }
  });
});
