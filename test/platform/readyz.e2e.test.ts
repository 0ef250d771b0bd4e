/**
 * `npm start` runs both services in one process, with one health output and one embedder. The
 * README: "`/readyz` reports … under `search` which embedder serves … and, per search index, how
 * many texts are indexed and pending" — every index of the process, whichever service asks: the
 * feedback service's items and people beside the notes service's notes. (Each service reported
 * under `search` and the last one to register hid the other, so a feedback backlog never showed
 * in the feedback service's /readyz.)
 * Issue 11 item 6: "prom-client /metrics on each service: … embedder queue length" — per index,
 * the texts waiting for the embedder, the same figures /readyz shows.
 */
import { expect } from 'chai';
import { serviceModules } from '../../src/services.js';
import { startTestRuntime, type TestRuntime } from '../support/runtime.js';

interface Ready {
  search?: {
    embedder?: { state: string };
    indexes?: Record<string, { pending: number; indexed: number }>;
  };
}

describe('/readyz of the two services in one process (e2e)', function () {
  this.timeout(60_000);
  let t: TestRuntime;
  before(async () => {
    t = await startTestRuntime(serviceModules());
  });
  after(() => t.stop());

  const readyIndexes = async (service: string) => {
    const deadline = Date.now() + 45_000;
    let report: Ready = {};
    // the indexes show once the embedder is ready
    while (!report.search?.indexes) {
      expect(Date.now(), JSON.stringify(report.search)).to.be.below(deadline);
      report = (await (await fetch(`${t.url(service)}/readyz`)).json()) as Ready;
      if (!report.search?.indexes) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return report.search;
  };

  it('reports the search indexes of both services, at either service’s URL', async () => {
    for (const service of ['feedback', 'notes']) {
      const search = await readyIndexes(service);
      expect(search.embedder?.state).to.equal('ready');
      expect(Object.keys(search.indexes!).sort(), service).to.deep.equal([
        'items',
        'notes',
        'people',
      ]);
    }
  });

  // /readyz's report goes to operators, who paste it anywhere: it names the engines, not where
  // their files are
  it('names its stores without the data directory’s path', async () => {
    for (const service of ['feedback', 'notes']) {
      const text = await (await fetch(`${t.url(service)}/readyz`)).text();
      expect(text).not.to.include(t.dir);
      const { stores } = JSON.parse(text) as { stores: Record<string, string> };
      expect(stores).to.deep.equal({
        eventStore: 'embedded (SQLite)',
        readStore: 'embedded (SQLite)',
      });
    }
  });

  it('serves each index’s texts waiting for the embedder, and those embedded, on /metrics', async () => {
    const { indexes } = await readyIndexes('feedback');
    const text = await (await fetch(`${t.url('notes')}/metrics`)).text();
    for (const [name, progress] of Object.entries(indexes!)) {
      expect(text).to.include(`search_pending_texts{index="${name}"} ${progress.pending}\n`);
      expect(text).to.include(`search_indexed_texts{index="${name}"} ${progress.indexed}\n`);
    }
  });
});
