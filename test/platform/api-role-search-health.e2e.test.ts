/**
 * README, "/readyz": to an operator it reports "under `search` which embedder serves … and, per
 * search index, how many texts are indexed and pending … and how many scopes (`loadedScopes`)
 * and bytes of vectors (`loadedVectorBytes`) the process holds in memory"; `/metrics` serves
 * them "per search index". An API process (`start:api`) is the one that holds the scopes its
 * searches load, yet it reported the notes index alone: the feedback board reported its items
 * and people indexes only from the projector role. The role runs in-process over the embedded
 * stores (the entry point refuses to start without MONGODB_URL; the runtime does not need it).
 */
import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { loadConfig } from '../../src/config/load.js';
import { silentLogger } from '../../src/platform/logger.js';
import { type Runtime, startRuntime } from '../../src/platform/runtime.js';
import { serviceModules } from '../../src/services.js';
import { tempDir } from '../support/stores.js';

interface Report {
  role?: string;
  search?: { indexes?: Record<string, { loadedScopes: number; loadedVectorBytes: number }> };
}

describe('The search report of an API process (start:api) (e2e)', function () {
  this.timeout(90_000);
  const dir = tempDir('api-search-health-');
  let runtime: Runtime;
  let url: string;

  before(async () => {
    const config = loadConfig({
      DATA_DIR: dir,
      FEEDBACK_PORT: '0',
      NOTES_PORT: '0',
      DEV_MODE: 'true',
      LOG_LEVEL: 'error',
    });
    runtime = await startRuntime({
      config,
      role: 'api',
      services: serviceModules(),
      logger: silentLogger,
    });
    url = runtime.urls.get('feedback')!;
  });
  after(async () => {
    await runtime?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('/readyz shows every index the process searches: items, people and notes', async () => {
    const deadline = Date.now() + 60_000;
    const read = async () => (await (await fetch(`${url}/readyz`)).json()) as Report;
    let ready = await read();
    // the indexes show once the embedder is ready
    while (!ready.search?.indexes && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      ready = await read();
    }
    expect(ready.role).to.equal('api');
    expect(Object.keys(ready.search?.indexes ?? {}).sort(), JSON.stringify(ready)).to.deep.equal([
      'items',
      'notes',
      'people',
    ]);
    expect(ready.search?.indexes?.items.loadedScopes).to.equal(0);
  });

  it('/metrics carries the held scopes and vector bytes of each of them', async () => {
    const text = await (await fetch(`${url}/metrics`)).text();
    for (const index of ['items', 'people', 'notes']) {
      expect(text).to.match(new RegExp(`search_loaded_scopes\\{index="${index}"\\} \\d+\\n`));
      expect(text).to.match(new RegExp(`search_loaded_vector_bytes\\{index="${index}"\\} \\d+\\n`));
    }
  });
});
