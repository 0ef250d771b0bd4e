/**
 * What clients get while the data file cannot grow (failure audit, disk full): a search
 * answered `500 internal` and a client registration `400 "the registration body is not valid
 * JSON"` — both because the read store's write (the search budget, the per-IP registration
 * count) failed with SQLITE_FULL. README (Operations): a store that cannot serve answers 503
 * with Retry-After in the service's envelope.
 *
 * The full disk is SQLite's own: the read store's connection may not grow the file
 * (`max_page_count`), after a filler table took its last free pages.
 */
import type Database from 'better-sqlite3';
import { expect } from 'chai';
import { type FeedbackHarness, startFeedback } from '../feedback/support/harness.js';

/** the read store's own SQLite connection (the fault is injected at the edge: the file) */
function connectionOf(fb: FeedbackHarness): Database.Database {
  const store = fb.deps().readStore as unknown as { file?: { db?: Database.Database } };
  if (!store.file?.db) throw new Error('the harness does not run the embedded read store');
  return store.file.db;
}

/** Fills the file up to the pages it has, and forbids more. */
function fillDisk(db: Database.Database): void {
  db.exec('CREATE TABLE IF NOT EXISTS filler (x BLOB)');
  db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
  const insert = db.prepare('INSERT INTO filler VALUES (randomblob(512))');
  try {
    for (;;) insert.run();
  } catch (error) {
    expect((error as { code?: string }).code).to.equal('SQLITE_FULL');
  }
}

function freeDisk(db: Database.Database): void {
  db.pragma('max_page_count = 1073741823');
  db.exec('DROP TABLE filler');
}

describe('When the data file cannot grow (disk full)', function () {
  this.timeout(30_000);
  let fb: FeedbackHarness;
  let token: string;
  before(async () => {
    fb = await startFeedback();
    const maker = await fb.createMaker('full@example.com');
    token = maker.token;
    const ws = await fb.createWorkspace(maker, { slug: 'full-disk', name: 'Full' });
    await fb.createProduct(ws, { key: 'FULL', name: 'Full' });
    fillDisk(connectionOf(fb));
  });
  after(async () => {
    freeDisk(connectionOf(fb));
    await fb.stop();
  });

  it('answers a search 503 with Retry-After in the envelope, not 500', async () => {
    const res = await fb
      .api(token)
      .get('/v1/workspaces/full-disk/products/FULL/items/search?q=dark');
    expect(res.status, JSON.stringify(res.body)).to.equal(503);
    expect(res.body.code).to.equal('resource-exhausted');
    expect(Number(res.headers.get('retry-after'))).to.be.at.least(1);
  });

  it('answers a client registration 503, not "the registration body is not valid JSON"', async () => {
    const res = await fetch(`${fb.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.10' },
      body: JSON.stringify({
        client_name: 'Full disk client',
        redirect_uris: ['http://127.0.0.1:9/cb'],
        token_endpoint_auth_method: 'none',
      }),
    });
    const body = await res.text();
    expect(res.status, body).to.equal(503);
    expect(body).not.to.include('not valid JSON');
    expect(Number(res.headers.get('retry-after'))).to.be.at.least(1);
  });
});
