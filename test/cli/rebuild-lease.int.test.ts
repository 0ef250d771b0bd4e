/**
 * `rebuild` never runs beside a live projector (README, "Admin CLI": "it takes the projector
 * lease first and, while a `projector` process or a server (`npm start`, embedded or not) holds
 * it, refuses … and exit code 1, changing nothing"). Dropping a read model under a projector lost
 * acknowledged updates: its checkpoint moved on past events it applied to a dropped collection.
 */
import { expect } from 'chai';
import { PROJECTOR_LEASE, PROJECTOR_LEASE_ID } from '../../src/read/projector-lease.js';
import { serviceModules } from '../../src/services.js';
import { startTestRuntime, type TestRuntime } from '../support/runtime.js';
import { cliFails, cliOk, removeDir, seedBoard, tempDataDir, withStores } from './support.js';

const REFUSAL =
  /^error: a projector is running \(server pid \d+ on .+ \([0-9a-f]{8}\)\); stop it before rebuilding items$/;

describe('When a server (role all, embedded) runs over the DATA_DIR', function () {
  this.timeout(120_000);
  let dir: string;
  let server: TestRuntime | undefined;
  before(async () => {
    dir = tempDataDir();
    await seedBoard(dir);
    server = await startTestRuntime(serviceModules(), { DATA_DIR: dir });
  });
  after(async () => {
    await server?.stop();
    removeDir(dir);
  });

  it('rebuild refuses with one line naming the server, and leaves the lease with it', async () => {
    const line = await cliFails(dir, 'rebuild', '--projector', 'items');
    expect(line).to.match(REFUSAL);
    const holder = await server!.runtime.stores
      .lease(PROJECTOR_LEASE, PROJECTOR_LEASE_ID)
      .holder(Date.now());
    expect(line).to.contain(`(${holder?.holder})`);
  });

  it('rebuilds once the server has stopped, and frees the lease for the next run', async () => {
    await server!.stop();
    server = undefined;
    const out = await cliOk(dir, 'rebuild', '--projector', 'items');
    expect(out).to.match(/^rebuilt items \(items\) up to position \d+/);
    // released, not left to run out: a second rebuild right away is not refused
    await cliOk(dir, 'rebuild', '--projector', 'items');
    const holder = await withStores(dir, (stores) =>
      stores.lease(PROJECTOR_LEASE, PROJECTOR_LEASE_ID).holder(Date.now()),
    );
    expect(holder).to.equal(undefined);
  });
});
