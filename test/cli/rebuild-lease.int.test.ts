/**
 * `rebuild` never runs beside a live projector (README, "Admin CLI": "it takes the projector
 * lease first and, while a `projector` process or a server (`npm start`, embedded or not) holds
 * it, refuses … and exit code 1, changing nothing"). Dropping a read model under a projector lost
 * acknowledged updates: its checkpoint moved on past events it applied to a dropped collection.
 */
import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { PROJECTOR_LEASE, PROJECTOR_LEASE_ID } from '../../src/read/projector-lease.js';
import { serviceModules } from '../../src/services.js';
import { WORKER_LEASE } from '../../src/webhooks/worker/state.js';
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

  it('rebuild and import-workspace name the lease holder in one form', async () => {
    // one label for every lease holder (platform/lease.ts holderLabel): import-workspace's
    // refusal named the server's webhook worker "vm:N:…" where rebuild's said "server pid N on vm"
    const file = join(dir, 'export.jsonl');
    writeFileSync(file, '');
    const named = (line: string) => /is running \((.+)\); /.exec(line)?.[1];
    const projector = named(await cliFails(dir, 'rebuild', '--projector', 'items'));
    const worker = named(await cliFails(dir, 'import-workspace', '--file', file));
    const form = /^[a-z ]+ pid (\d+) on (\S+) \([0-9a-f]{8}\)$/;
    expect(projector).to.match(form);
    expect(worker).to.match(form);
    const [projectorForm, workerForm] = [form.exec(projector!), form.exec(worker!)];
    // the same process, named by the same pid and host
    expect(workerForm!.slice(1)).to.deep.equal([String(process.pid), hostname()]);
    expect(projectorForm!.slice(1)).to.deep.equal(workerForm!.slice(1));
    const held = await server!.runtime.stores
      .lease(WORKER_LEASE.collection, WORKER_LEASE.id)
      .holder(Date.now());
    expect(worker).to.equal(held?.holder);
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
