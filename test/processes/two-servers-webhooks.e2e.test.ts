/**
 * Two `npm start` processes on one data directory (issue 17 runs two API processes over one
 * file) and a webhook: each message reaches the receiver once, not once per process. README:
 * "the webhook workers share a lease … the one holding it delivers" — on the embedded default
 * the lease is in the data file, because each process's embedded read store is its own.
 */
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { apiClient } from '../feedback/support/api.js';
import { startFeedback } from '../feedback/support/harness.js';
import { startReceiver, type Receiver } from '../feedback/webhooks/support/receiver.js';
import { startProcess } from '../support/processes.js';
import { tempDir } from '../support/stores.js';

describe('Two processes on one data directory with a webhook (e2e)', function () {
  this.timeout(90_000);
  const dir = tempDir('two-servers-');
  const children: ChildProcess[] = [];
  let receiver: Receiver;
  let token = '';

  before(async () => {
    receiver = await startReceiver();
    const env = { DATA_DIR: dir, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };
    const fb = await startFeedback({ env });
    const owner = await fb.createMaker('owner@two.example', 'owner');
    const ws = await fb.createWorkspace(owner, { slug: 'two-hooks', name: 'Two' });
    await fb.createProduct(ws, { key: 'DUO', name: 'Duo', visibility: 'public' });
    const hook = await fb.api(owner.token).post('/v1/workspaces/two-hooks/webhooks', {
      url: receiver.url,
      eventTypes: ['item.created'],
    });
    expect(hook.status, JSON.stringify(hook.body)).to.equal(200);
    token = owner.token;
    await fb.stop();
  });
  after(async () => {
    for (const child of children) child.kill('SIGKILL');
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('delivers each message once, from whichever process holds the lease', async () => {
    const env = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', SHARED_DATA_DIR: 'true' };
    const [a, b] = await Promise.all([startProcess(dir, env), startProcess(dir, env)]);
    children.push(a.child, b.child);
    for (let i = 0; i < 6; i++) {
      const url = i % 2 === 0 ? a.url : b.url;
      const res = await apiClient(url, token).post('/v1/public/two-hooks/DUO/feedback', {
        body: `two processes, message ${i}`,
      });
      expect(res.status).to.equal(200);
    }
    await receiver.until(6, 30_000);
    // both processes have seen every event by now (they poll the shared log); give a second
    // deliverer time to show itself
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const ids = receiver.received.map((r) => r.id);
    expect(ids, 'a webhook-id arrived twice').to.have.length(new Set(ids).size);
    expect(ids).to.have.length(6);
  });
});
