/**
 * Issue 14: "report progress of a full (re)index in /readyz". The feedback service reports under
 * `search` its embedder and, per index, how many texts are indexed and pending, the rate they are
 * embedded at and the seconds left at that rate.
 */
import { expect } from 'chai';
import { type FeedbackHarness, startFeedback } from '../support/harness.js';

interface Progress {
  indexed: number;
  pending: number;
  textsPerSecond: number;
  etaSeconds: number | null;
}
interface Ready {
  search: { embedder: { state: string }; indexes?: { items: Progress; people: Progress } };
}

describe('/readyz search progress (feedback)', function () {
  this.timeout(60_000);
  let h: FeedbackHarness;
  before(async () => {
    h = await startFeedback();
  });
  after(() => h.stop());

  const ready = async (): Promise<Ready> =>
    (await fetch(`${h.url}/readyz`)).json() as Promise<Ready>;

  it('counts the items and people indexed, none pending once the indexer is done, and the rate', async () => {
    const maker = await h.createMaker();
    await h.createProduct(maker.home, { key: 'ACME', name: 'Acme' });
    const texts = ['Dark mode please', 'Export to CSV', 'Crash on upload'];
    for (const [i, body] of texts.entries()) {
      await h.submit(maker.home, 'ACME', { body, email: `p${i}@example.com` });
    }
    let report = await ready();
    const deadline = Date.now() + 30_000;
    while (
      (report.search.indexes?.items.indexed ?? 0) < texts.length ||
      (report.search.indexes?.people.indexed ?? 0) < texts.length
    ) {
      expect(Date.now(), JSON.stringify(report.search)).to.be.below(deadline);
      await new Promise((resolve) => setTimeout(resolve, 100));
      report = await ready();
    }
    expect(report.search.embedder.state).to.equal('ready');
    const { items, people } = report.search.indexes!;
    expect(items).to.include({ indexed: texts.length, pending: 0, etaSeconds: null });
    expect(people).to.include({ indexed: texts.length, pending: 0, etaSeconds: null });
    // embedded within the last seconds: the rate over the window is not zero
    expect(items.textsPerSecond).to.be.above(0);
  });
});
