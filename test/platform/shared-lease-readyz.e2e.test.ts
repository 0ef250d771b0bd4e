/**
 * README, Probes: a server's (`npm start`, role `all`) `/readyz` reports its `projectorLease`
 * too: `held` with the holder, `held by another`, or `unavailable` with the `error` while its
 * store fails — and stays ready (200) meanwhile: it projects and serves whatever the lease's
 * store answers (the lease only lets `rebuild` see it), as a projector holding its lease whose
 * renewals fail stays ready. The store's failure used to show only in the log and the metric.
 *
 * The server runs in-process over the embedded stores, its lease in the data file; the fault is
 * injected at the edge, in that file: a trigger refuses the lease's writes.
 */
import { rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { loadConfig } from '../../src/config/load.js';
import { createFeedbackService } from '../../src/feedback/service.js';
import { type Runtime, startRuntime } from '../../src/platform/runtime.js';
import { embeddedFile } from '../../src/platform/stores.js';
import { logLines } from '../support/log-lines.js';
import { tempDir } from '../support/stores.js';

const LEASE = 'projector_lease/lease';
/** PROJECTOR_LEASE_MS 1000: a renewal every 333 ms */
const TRIES = 1_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('When the store of a server’s shared projector lease fails (e2e)', function () {
  this.timeout(60_000);
  const dir = tempDir('shared-lease-readyz-');
  const log = logLines();
  const config = loadConfig({
    DATA_DIR: dir,
    FEEDBACK_PORT: '0',
    PROJECTOR_LEASE_MS: '1000',
    DEV_MODE: 'true',
  });
  let runtime: Runtime;
  let file: Database.Database;
  const readyz = async () => {
    const res = await fetch(`${runtime.urls.get('feedback')}/readyz`);
    const body = (await res.json()) as { reasons?: string[]; projectorLease?: unknown };
    return { status: res.status, reasons: body.reasons, projectorLease: body.projectorLease };
  };

  before(async () => {
    runtime = await startRuntime({
      config,
      role: 'all',
      services: [createFeedbackService()],
      logger: log.logger,
    });
    file = new Database(embeddedFile(config));
  });
  after(async () => {
    file?.close();
    await runtime?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports the lease held by the server while its store answers', async () => {
    const ready = await readyz();
    expect(ready.status).to.equal(200);
    expect(ready.projectorLease).to.have.property('state', 'held');
  });

  it('reports it unavailable with the store’s error, still ready, then held once it answers', async () => {
    file.exec(`CREATE TRIGGER lease_refused BEFORE INSERT ON process_leases
      WHEN NEW.name = '${LEASE}' BEGIN SELECT RAISE(ABORT, 'lease write refused'); END`);
    await pause(TRIES);
    const failing = await readyz();
    file.exec('DROP TRIGGER lease_refused');
    await pause(TRIES);
    const answered = await readyz();

    expect(failing).to.deep.equal({
      status: 200,
      reasons: undefined,
      projectorLease: { state: 'unavailable', error: 'lease write refused' },
    });
    expect(answered.status).to.equal(200);
    expect(answered.projectorLease).to.have.property('state', 'held');
  });
});
