/**
 * README (Catching up: the event feed): "`nextCursor` is never null: keep it, and poll with it
 * after an outage ... each message comes exactly once"; cursors are "opaque and signed" — with
 * `APP_SECRET` or, unset, the generated `DATA_DIR/secret`, so a cursor a consumer kept holds
 * across a restart of the service. The same for the pages of an item's history and of the audit
 * trail an auditor is walking when the service restarts.
 */
import { expect } from 'chai';
import { type FeedbackHarness, type Maker, startFeedback } from '../support/harness.js';
import { itemPath, SLUG } from './story.js';

const FEED = `/v1/workspaces/${SLUG}/events`;
const AUDIT = `/v1/workspaces/${SLUG}/audit`;

describe('Cursors kept across a restart of the service (e2e)', () => {
  let fb: FeedbackHarness;
  let owner: Maker;
  before(async function () {
    this.timeout(60_000);
    // the same address after the restart, where the maker's token is valid
    fb = await startFeedback({ fixedPort: true });
    owner = await fb.createMaker('max@acme.io', 'laptop');
    const ws = await fb.createWorkspace(owner, { slug: SLUG, name: 'Acme' });
    await fb.createProduct(ws, { key: 'APP', name: 'Acme App', visibility: 'public' });
  });
  after(() => fb.stop());
  const api = () => fb.api(owner.token);
  const ok = <T>(res: { status: number; body: T }): T => {
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body;
  };

  it('resumes the feed, an item’s history and the audit trail where they stopped', async function () {
    this.timeout(60_000);
    const first = ok(await api().post(`/v1/public/${SLUG}/APP/feedback`, { body: 'Dark mode' }));
    const key = (first as { itemId: string }).itemId;
    for (const status of ['planned', 'in-progress']) {
      ok(await api().post(`${itemPath(key)}/status`, { status }));
    }
    const feed = ok(await api().get(`${FEED}?pageSize=200`)) as { nextCursor: string };
    const history = ok(await api().get(`${itemPath(key)}/history?pageSize=2`)) as {
      nextCursor: string;
    };
    const audit = ok(await api().get(`${AUDIT}?pageSize=2`)) as {
      items: { position: string }[];
      nextCursor: string;
    };
    // what happens during the outage: one more change
    ok(await api().post(`${itemPath(key)}/status`, { status: 'shipped' }));

    await fb.restart();

    const after = ok(await api().get(`${FEED}?after=${feed.nextCursor}`)) as {
      items: { type: string; data: { itemKey: string; sequence: number } }[];
    };
    expect(after.items.map((m) => [m.type, m.data.itemKey, m.data.sequence])).to.deep.equal([
      ['item.status_changed', key, 3],
    ]);
    const rest = ok(await api().get(`${itemPath(key)}/history?cursor=${history.nextCursor}`)) as {
      items: { revision: number }[];
    };
    expect(rest.items.map((c) => c.revision)).to.deep.equal([2, 3]);
    const older = ok(await api().get(`${AUDIT}?pageSize=2&cursor=${audit.nextCursor}`)) as {
      items: { position: string }[];
    };
    expect(older.items).to.have.length(2);
    expect(BigInt(older.items[0]!.position) < BigInt(audit.items[1]!.position)).to.equal(true);
  });
});
