/**
 * README, Admin CLI: `rebuild` "drops those read models … and replays the log into them". A
 * server paused past its projector lease (SIGSTOP, a laptop asleep) does not stop `rebuild`, which
 * takes the lapsed lease; woken, it still holds the read model as it loaded it. "A server that
 * loaded a read model before a `rebuild` dropped it never writes it again": its documents would
 * come back into the rebuilt model — the damage the rebuild was run to repair — and its
 * checkpoint, ahead of the replay's, would hold that below it.
 *
 * A real server (`npm start`) on a shared data directory, the real CLI: the items read model is
 * damaged on disk (a title garbled), the server loads it, is paused past its lease, `rebuild
 * --projector items` repairs the file, the server wakes and changes the item's status. After a
 * restart the item has its own title and the new status.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { STORE_FILE } from '../../src/config/data-dir.js';
import { apiClient, startFeedback } from '../feedback/support/harness.js';
import { cliOk } from '../cli/support.js';
import { startProcess } from '../support/processes.js';
import { tempDir } from '../support/stores.js';

const LEASE_MS = 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('When `rebuild` drops a read model under a server paused past its lease (e2e)', function () {
  this.timeout(90_000);
  const dir = tempDir('rebuild-woken-');
  let server: ChildProcess | undefined;
  after(() => {
    server?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('the woken server writes nothing into the rebuilt read model', async () => {
    const fb = await startFeedback({ env: { DATA_DIR: dir } });
    const maker = await fb.createMaker('max@acme.io');
    await fb.createProduct(maker.home, { key: 'APP', name: 'App', visibility: 'public' });
    const { itemKey } = await fb.submit(maker.home, 'APP', { body: 'Dark mode please' });
    await fb.stop();
    // the damage an operator rebuilds a read model for
    const db = new Database(join(dir, STORE_FILE));
    db.prepare(
      `UPDATE rm_docs SET json = json_set(json, '$.title', 'garbled') WHERE collection = 'items'`,
    ).run();
    db.close();

    const started = await startProcess(dir, {
      SHARED_DATA_DIR: 'true',
      PROJECTOR_LEASE_MS: String(LEASE_MS),
    });
    server = started.child;
    const item = `/v1/workspaces/${maker.home.slug}/products/APP/items/${itemKey}`;
    const api = apiClient(started.url, maker.token);
    expect((await api.get(item)).body.item.title, 'as loaded').to.equal('garbled');

    server.kill('SIGSTOP');
    await sleep(LEASE_MS * 2); // its lease runs out
    expect(await cliOk(dir, 'rebuild', '--projector', 'items')).to.match(/^rebuilt items/);
    server.kill('SIGCONT');
    const changed = await api.post(`${item}/status`, { status: 'planned' });
    expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
    const exited = once(server, 'exit');
    server.kill('SIGTERM'); // its stop flushes what it holds
    await exited;
    server = undefined;

    const restarted = await startFeedback({ env: { DATA_DIR: dir } });
    try {
      const after = await restarted.api(maker.token).get(item);
      expect(after.status, JSON.stringify(after.body)).to.equal(200);
      expect(after.body.item).to.include({ title: 'Dark mode please', status: 'planned' });
    } finally {
      await restarted.stop();
    }
  });
});
