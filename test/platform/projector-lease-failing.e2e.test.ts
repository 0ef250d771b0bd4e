/**
 * README, Running on KurrentDB + MongoDB, "Probes of the workers": "`projectorLease` (`held` with
 * the holder, `standing by` while another holds it, or `unavailable` with the `error` while its
 * store fails to take it …)", 503 "while its lease is `unavailable` (it could not take over). It
 * keeps trying, and logs the store's error as a warning … once per distinct error (again after
 * the store has answered); every failed try … counts in `projector_lease_errors_total`". A store
 * that fails is no other holder: the projector used to say it stood by for one, and was ready.
 *
 * The projector runs in-process over the embedded stores, its lease in the data file; the fault
 * is injected at the edge, in that file: a trigger refuses the lease's writes, as a file that
 * cannot take them would.
 */
import { rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { loadConfig } from '../../src/config/load.js';
import { type Runtime, startRuntime } from '../../src/platform/runtime.js';
import { embeddedFile } from '../../src/platform/stores.js';
import { logLines } from '../support/log-lines.js';
import { tempDir } from '../support/stores.js';

const LEASE = 'projector_lease/lease';
const WARNING = 'projector lease could not be taken: its store failed; trying again';
const STANDING_BY = 'standing by: another projector holds the lease';
/** PROJECTOR_LEASE_MS 1000: a try every 333 ms */
const TRIES = 1_500;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Ready {
  status: number;
  body: { status: string; reasons?: string[]; projectorLease?: unknown };
}

describe('When the projector lease’s store fails while a projector waits for it (e2e)', function () {
  this.timeout(60_000);
  const dir = tempDir('lease-failing-');
  const config = loadConfig({ DATA_DIR: dir, OPS_PORT: '0', PROJECTOR_LEASE_MS: '1000' });
  const log = logLines();
  let file: Database.Database;
  let started: Promise<Runtime>;
  let url: string;

  /** the data file refuses the lease's writes with `message` (again: a new message) */
  const refuse = (message: string) => {
    file.exec('DROP TRIGGER IF EXISTS lease_refused');
    file.exec(`CREATE TRIGGER lease_refused BEFORE INSERT ON process_leases
      WHEN NEW.name = '${LEASE}' BEGIN SELECT RAISE(ABORT, '${message}'); END`);
  };
  const lines = (msg: string) => log.lines.filter((line) => line.msg === msg);
  const leaseErrors = async () => {
    const metrics = await (await fetch(`${url}/metrics`)).text();
    return Number(/^projector_lease_errors_total (\d+)$/m.exec(metrics)?.[1]);
  };
  const readyz = async (): Promise<Ready> => {
    const res = await fetch(`${url}/readyz`);
    return { status: res.status, body: (await res.json()) as Ready['body'] };
  };

  before(async () => {
    // a projector that ran and stopped: the data file holds the lease's table, the lease free
    await (
      await startRuntime({ config, role: 'projector', services: [], logger: log.logger })
    ).stop();
    log.lines.length = 0;
    file = new Database(embeddedFile(config));
    refuse('lease write refused: first fault');
    started = startRuntime({ config, role: 'projector', services: [], logger: log.logger });
    started.catch(() => {});
    const listening = await log.find((line) => line.msg === 'ops listening', 20_000);
    url = String(listening?.url);
    await pause(TRIES);
  });
  after(async () => {
    file.close();
    await (await started).stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('logs a warning naming the error once per distinct error, never that another holds it', async () => {
    expect(lines(WARNING).map((line) => line.error)).to.deep.equal([
      'lease write refused: first fault',
    ]);
    refuse('lease write refused: second fault');
    await pause(TRIES);
    expect(lines(WARNING).map((line) => line.error)).to.deep.equal([
      'lease write refused: first fault',
      'lease write refused: second fault',
    ]);
    expect(lines(STANDING_BY)).to.deep.equal([]);
  });

  it('answers /readyz 503, the lease unavailable with the error, and counts each failed try', async () => {
    const ready = await readyz();
    expect(ready.status).to.equal(503);
    expect(ready.body.projectorLease).to.deep.equal({
      state: 'unavailable',
      error: 'lease write refused: second fault',
    });
    expect(ready.body.reasons).to.deep.equal([
      'the projector lease could not be taken: lease write refused: second fault',
    ]);
    // two pauses of 1.5 s at a try every 333 ms: more tries than the two distinct errors (a
    // lower bound only: a loaded machine runs the timers late)
    expect(await leaseErrors()).to.be.at.least(3);
  });

  it('once the store answers with the lease held by another, stands by and is ready', async () => {
    const until = Date.now() + 60_000;
    file
      .prepare('UPDATE process_leases SET holder = ?, until = ? WHERE name = ?')
      .run('projector pid 1 on elsewhere (0000)', until, LEASE);
    file.exec('DROP TRIGGER lease_refused');
    await pause(TRIES);
    const ready = await readyz();
    expect(ready.status).to.equal(200);
    expect(ready.body.projectorLease).to.deep.include({
      state: 'standing by',
      heldBy: 'projector pid 1 on elsewhere (0000)',
      until: new Date(until).toISOString(),
    });
    // the log says so too, after the warnings
    const said = log.lines
      .map((line) => line.msg)
      .filter((msg) => msg === WARNING || msg === STANDING_BY);
    expect(said).to.deep.equal([WARNING, WARNING, STANDING_BY]);
  });

  it('takes the lease once it is free, and reports it held; no error counted since', async () => {
    const errors = await leaseErrors();
    expect(errors).to.be.above(0);
    file.prepare('UPDATE process_leases SET until = 0 WHERE name = ?').run(LEASE);
    await started;
    const ready = await readyz();
    expect(ready.status).to.equal(200);
    expect(ready.body.projectorLease).to.have.property('state', 'held');
    expect(await leaseErrors()).to.equal(errors);
  });
});
