/**
 * `npm start` runs both services in one process, with one health output and one embedder. The
 * README: "`/readyz` reports … under `search` which embedder serves … and, per search index, how
 * many texts are indexed and pending" — every index of the process, whichever service asks: the
 * feedback service's items and people beside the notes service's notes. (Each service reported
 * under `search` and the last one to register hid the other, so a feedback backlog never showed
 * in the feedback service's /readyz.)
 */
import { expect } from 'chai';
import { serviceModules } from '../../src/services.js';
import { startTestRuntime, type TestRuntime } from '../support/runtime.js';

interface Ready {
  search?: { embedder?: { state: string }; indexes?: Record<string, { pending: number }> };
}

describe('/readyz of the two services in one process (e2e)', function () {
  this.timeout(60_000);
  let t: TestRuntime;
  before(async () => {
    t = await startTestRuntime(serviceModules());
  });
  after(() => t.stop());

  it('reports the search indexes of both services, at either service’s URL', async () => {
    for (const service of ['feedback', 'notes']) {
      const deadline = Date.now() + 45_000;
      let report: Ready = {};
      // the indexes show once the embedder is ready
      while (!report.search?.indexes) {
        expect(Date.now(), JSON.stringify(report.search)).to.be.below(deadline);
        report = (await (await fetch(`${t.url(service)}/readyz`)).json()) as Ready;
        if (!report.search?.indexes) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(report.search.embedder?.state).to.equal('ready');
      expect(Object.keys(report.search.indexes).sort(), service).to.deep.equal([
        'items',
        'notes',
        'people',
      ]);
    }
  });
});
