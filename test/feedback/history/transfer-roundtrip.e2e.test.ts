/**
 * A round trip: export a workspace, import it into an empty installation (as import-workspace
 * does: the events, then settleImport), export it again from there. Nothing may be lost or
 * changed on the way — items with their history, replies, tags, +1s, a merge, a notify, a
 * published changelog entry, its people, its webhooks and integrations: the two files hold the
 * same events, line for line. What must differ, and only that:
 *   - the header's `exportedAt` (when each was written) and `source` (each log's head and its
 *     hash: the source's log holds other users' events too);
 *   - every line's `hash` (the file's chain starts at the header's hash) and `logHash` (each
 *     log's own chain, over different neighbours).
 * And the target goes on where the source stopped: a new item takes the next number.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { exportWorkspace } from '../../../src/feedback/transfer/export.js';
import { importWorkspace } from '../../../src/feedback/transfer/import.js';
import { settleImport } from '../../../src/feedback/transfer/settle.js';
import { createSecretBox } from '../../../src/webhooks/secrets.js';
import { type Api, type FeedbackHarness, startFeedback } from '../support/harness.js';
import { itemPath, SLUG, type Story, tellStory } from './story.js';

const SECRET = 'transfer-roundtrip-secret-0123456789abcdef';
const ENV = { APP_SECRET: SECRET, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };

describe('A workspace exported, imported into an empty installation and exported again (e2e)', () => {
  let story: Story;
  let b: FeedbackHarness;
  let apiA: Api;
  let apiB: Api;
  let dir: string;
  let first: string[];
  let second: string[];

  const workspace = () => ({ id: story.ws.workspaceId, slug: SLUG, name: 'Acme' });
  const lines = (file: string) => readFileSync(file, 'utf8').trim().split('\n');

  before(async function () {
    this.timeout(180_000);
    story = await tellStory({ env: ENV });
    apiA = story.fb.api(story.owner.token);
    const ws = `/v1/workspaces/${SLUG}`;
    const ok = (res: { status: number; body: unknown }) =>
      expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 201]);
    ok(await apiA.post(`${itemPath('APP-1')}/changelog`, { publish: true }));
    ok(
      await apiA.post(`${ws}/webhooks`, {
        url: 'http://127.0.0.1:9/crm',
        description: 'CRM sync',
        eventTypes: ['item.created'],
      }),
    );
    ok(await apiA.post(`${ws}/integrations`, { name: 'Zapier' }));
    await story.fb.caughtUp();

    dir = mkdtempSync(join(tmpdir(), 'transfer-roundtrip-'));
    await exportWorkspace(
      story.fb.runtime.runtime.stores.rawEventStore,
      workspace(),
      join(dir, '1'),
    );
    b = await startFeedback({ env: ENV, clock: story.fb.clock });
    const stores = b.runtime.runtime.stores;
    await importWorkspace(stores.rawEventStore, join(dir, '1'));
    await b.caughtUp();
    await settleImport(
      { ...b.deps(), eventStore: stores.eventStore, secrets: createSecretBox(SECRET) },
      b.context(),
      story.ws.workspaceId,
    );
    await b.caughtUp();
    await exportWorkspace(stores.rawEventStore, workspace(), join(dir, '2'));
    apiB = b.api((await b.createToken(story.owner.userId, { name: 'after-import' })).token);
    first = lines(join(dir, '1'));
    second = lines(join(dir, '2'));
  });
  after(async () => {
    await b?.stop();
    await story?.fb.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('holds every kind of stream the workspace has, webhooks and integrations included', () => {
    const kinds = new Set(
      first.slice(1, -1).map((l) => (JSON.parse(l).streamId as string).split('-')[0]),
    );
    expect([...kinds].sort()).to.deep.equal(
      [
        'changelog',
        'integration',
        'item',
        'person',
        'product',
        'user',
        'webhook',
        'webhookroster',
        'workspace',
      ].sort(),
    );
  });

  it('writes the same events again, differing only in the times, heads and chain hashes', () => {
    const header = (l: string) => {
      const { exportedAt: _at, source: _source, ...rest } = JSON.parse(l);
      return rest;
    };
    const event = (l: string) => {
      const { hash: _hash, logHash: _logHash, ...rest } = JSON.parse(l);
      return rest;
    };
    expect(header(second[0]!)).to.deep.equal(header(first[0]!));
    expect(second.slice(1, -1).map(event)).to.deep.equal(first.slice(1, -1).map(event));
    expect(JSON.parse(second.at(-1)!).events).to.equal(first.length - 2);
  });

  it('answers the webhooks and integrations alike', async () => {
    for (const path of ['webhooks', 'integrations']) {
      const [a, fromB] = await Promise.all([
        apiA.get(`/v1/workspaces/${SLUG}/${path}`),
        apiB.get(`/v1/workspaces/${SLUG}/${path}`),
      ]);
      expect(a.status).to.equal(200);
      expect(a.body.items, path).to.have.length(1);
      expect(fromB.body, path).to.deep.equal(a.body);
    }
  });

  it('numbers a new item after the last one the source gave', async () => {
    const res = await apiB.post(`/v1/public/${SLUG}/APP/feedback`, {
      body: 'A third request',
      email: 'ann@customer.io',
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.itemId).to.equal('APP-3');
  });
});
