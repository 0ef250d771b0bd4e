/**
 * Issue 17: "Across processes (several API processes on one event store), a conflict is retried
 * with jittered backoff until a bounded deadline" — "A two-process test (two API processes on one
 * embedded SQLite file …): 100 concurrent submissions split over both → all succeed, dense keys."
 * Two real processes (`npm start`'s entry point) over one data directory, driven over HTTP.
 */
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { apiClient } from '../feedback/support/api.js';
import { startFeedback } from '../feedback/support/harness.js';
import { startProcess } from '../support/processes.js';
import { tempDir } from '../support/stores.js';

describe('Two API processes on one embedded data file (e2e)', function () {
  this.timeout(90_000);
  const dir = tempDir('two-writers-');
  const children: ChildProcess[] = [];
  const tokens: string[] = [];

  before(async () => {
    // set up the board in-process, then hand the data directory to two processes
    const fb = await startFeedback({ env: { DATA_DIR: dir } });
    const owner = await fb.createMaker('owner@two.example', 'owner');
    const ws = await fb.createWorkspace(owner, { slug: 'two-procs', name: 'Two' });
    await fb.createProduct(ws, { key: 'DUO', name: 'Duo', visibility: 'public' });
    tokens.push(owner.token);
    for (let i = 0; i < 3; i++) tokens.push((await fb.createMaker(`caller${i}@two.example`)).token);
    await fb.stop();
  });
  after(() => {
    for (const child of children) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  describe('When 100 submissions to one product are split over both at once', () => {
    it('answers every one 200 and numbers the items densely, each key once', async () => {
      // two servers on one DATA_DIR are refused unless the operator accepts per-process sign-ins
      const shared = { SHARED_DATA_DIR: 'true' };
      const [a, b] = await Promise.all([startProcess(dir, shared), startProcess(dir, shared)]);
      children.push(a.child, b.child);
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          apiClient(i % 2 === 0 ? a.url : b.url, tokens[i % tokens.length]).post(
            '/v1/public/two-procs/DUO/feedback',
            { body: `two processes, submission ${i}` },
          ),
        ),
      );
      expect(answers.map((r) => r.status)).to.deep.equal(answers.map(() => 200));
      const numbers = answers.map((r) => Number(String(r.body.itemId).split('-')[1]));
      expect([...numbers].sort((x, y) => x - y)).to.deep.equal(
        Array.from({ length: 100 }, (_, i) => i + 1),
      );
      // each process's read models reach the other's writes (it polls the shared log)
      for (const url of [a.url, b.url]) {
        const api = apiClient(url, tokens[0]);
        let product: { itemCount: number; nextItemNumber: number } | undefined;
        for (let tries = 0; tries < 100; tries++) {
          product = (await api.get('/v1/workspaces/two-procs/products')).body.items[0];
          if (product?.itemCount === 100) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(product).to.include({ itemCount: 100, nextItemNumber: 101 });
      }
    });
  });
});
