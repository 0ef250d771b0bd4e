/**
 * README, "Probes of the workers": a standby projector's `projectorLease` is "`standing by` while
 * another holds it, with `since` (when it began to) and, as its last try found them, `heldBy`
 * (the holder's label: its kind, process id and host) and `until` (when that holder's lease runs
 * out unless renewed)"; a server's (role `all`) "`held by another`, with `heldBy` and `until`".
 * The label holds nothing secret, and like the rest of the report only an operator reads it.
 * An operator looking at a standby saw that it did not project, not which process did.
 *
 * Real processes' runtimes in-process over the embedded stores (their lease in the data file),
 * read over HTTP: the standby's ops listener, and a server's two services.
 */
import { rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { loadConfig } from '../../src/config/load.js';
import { silentLogger } from '../../src/platform/logger.js';
import { type Runtime, startRuntime } from '../../src/platform/runtime.js';
import { embeddedFile } from '../../src/platform/stores.js';
import { serviceModules } from '../../src/services.js';
import { tempDir } from '../support/stores.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface LeaseReport {
  state: string;
  holder?: string;
  heldBy?: string;
  until?: string;
  since?: string;
}
const leaseOf = async (url: string) => {
  const res = await fetch(`${url}/readyz`);
  const body = (await res.json()) as { projectorLease?: LeaseReport };
  return { status: res.status, lease: body.projectorLease };
};

describe('Who holds the projector lease, on /readyz (e2e)', function () {
  this.timeout(60_000);
  const dirs: string[] = [];
  const runtimes: Runtime[] = [];
  afterEach(async () => {
    for (const runtime of runtimes.splice(0)) await runtime.stop();
  });
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const configFor = (env: Record<string, string>) => {
    dirs.push(tempDir('lease-holder-'));
    return loadConfig({
      DATA_DIR: dirs.at(-1)!,
      FEEDBACK_PORT: '0',
      NOTES_PORT: '0',
      DEV_MODE: 'true',
      PROJECTOR_LEASE_MS: '1000',
      ...env,
    });
  };

  it('a standby projector names the projector holding it, since when it stands by, and until when', async () => {
    const config = configFor({ OPS_PORT: '0' });
    const first = await startRuntime({
      config,
      role: 'projector',
      services: [],
      logger: silentLogger,
    });
    runtimes.push(first);
    const holder = (await leaseOf(first.urls.get('ops')!)).lease?.holder;
    expect(holder).to.match(/^projector pid \d+ on .+ \([0-9a-f]{8}\)$/);

    let standbyUrl: (url: string) => void = () => {};
    const listening = new Promise<string>((resolve) => {
      standbyUrl = resolve;
    });
    const logger = {
      ...silentLogger,
      info(message: string, fields?: Record<string, unknown>) {
        if (message === 'ops listening') standbyUrl(String(fields?.url));
      },
      child: () => logger,
    };
    const askedAt = Date.now();
    const second = startRuntime({ config, role: 'projector', services: [], logger });
    const url = await listening;
    // its first try for the lease may still be on the way
    let seen = await leaseOf(url);
    for (let i = 0; i < 40 && seen.lease?.heldBy === undefined; i++) {
      await pause(50);
      seen = await leaseOf(url);
    }

    expect(seen.status).to.equal(200);
    expect(seen.lease).to.have.all.keys('state', 'heldBy', 'until', 'since');
    expect(seen.lease).to.include({ state: 'standing by', heldBy: holder });
    expect(seen.lease?.until).to.match(ISO);
    expect(seen.lease?.since).to.match(ISO);
    const until = Date.parse(seen.lease!.until!);
    // the holder renews its 1 s lease every third of it: it ends at most a lease from now
    expect(until).to.be.within(askedAt, Date.now() + 1_000);
    expect(Date.parse(seen.lease!.since!)).to.be.within(askedAt - 5, Date.now());

    await pause(1_000); // renewed since: `until` moves on, `since` stays
    const later = await leaseOf(url);
    expect(later.lease?.since).to.equal(seen.lease?.since);
    expect(Date.parse(later.lease!.until!)).to.be.above(until);

    await first.stop();
    runtimes.splice(0);
    runtimes.push(await second);
    expect((await leaseOf(url)).lease?.state).to.equal('held');
  });

  it('a server names the other server holding it, on both services', async () => {
    const config = configFor({});
    const until = Date.now() + 60_000;
    const file = new Database(embeddedFile(config));
    file.exec(
      'CREATE TABLE IF NOT EXISTS process_leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, until INTEGER NOT NULL)',
    );
    file
      .prepare('INSERT INTO process_leases (name, holder, until) VALUES (?, ?, ?)')
      .run('projector_lease/lease', 'server pid 4242 on elsewhere (0a1b2c3d)', until);
    file.close();
    const server = await startRuntime({
      config,
      role: 'all',
      services: serviceModules(),
      logger: silentLogger,
    });
    runtimes.push(server);

    for (const service of ['feedback', 'notes']) {
      const seen = await leaseOf(server.urls.get(service)!);
      expect(seen.status, service).to.equal(200);
      expect(seen.lease, service).to.deep.equal({
        state: 'held by another',
        heldBy: 'server pid 4242 on elsewhere (0a1b2c3d)',
        until: new Date(until).toISOString(),
      });
    }
  });
});
