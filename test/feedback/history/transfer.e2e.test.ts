/**
 * Export and import of a workspace (issue 15): "`import-workspace --file <file>` into an empty
 * instance reproduces it exactly — every API answer of the two instances equal (test it over
 * HTTP on two services)."
 *
 * Instance A is the item story (capture, edits, replies by maker, agent and person, a merge,
 * a notify, +1s). Its workspace is exported from A's log while A runs, imported into a second
 * service B with an empty log, and then every read operation of the workspace is asked of both:
 * the owner holds a token on each (tokens are credentials of an instance and are not exported).
 * Both share the clock and APP_SECRET, so time-derived values and signed cursors can be equal.
 * (Semantic search is left out: its index fills in the background on each instance.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { exportWorkspace } from '../../../src/feedback/transfer/export.js';
import { importWorkspace } from '../../../src/feedback/transfer/import.js';
import { type Api, type FeedbackHarness, startFeedback } from '../support/harness.js';
import { SLUG, type Story, tellStory } from './story.js';

const SECRET = { APP_SECRET: 'transfer-test-secret-0123456789abcdef' };

describe('A workspace exported and imported into an empty instance (e2e, two services)', () => {
  let story: Story;
  let b: FeedbackHarness;
  let apiA: Api;
  let apiB: Api;
  let dir: string;

  before(async function () {
    this.timeout(180_000);
    story = await tellStory({ env: SECRET });
    dir = mkdtempSync(join(tmpdir(), 'transfer-'));
    const file = join(dir, 'acme.jsonl');
    await exportWorkspace(
      story.fb.runtime.runtime.stores.rawEventStore,
      { id: story.ws.workspaceId, slug: SLUG, name: 'Acme' },
      file,
    );
    b = await startFeedback({ env: SECRET, clock: story.fb.clock });
    await importWorkspace(b.runtime.runtime.stores.rawEventStore, file);
    await b.caughtUp();
    const token = await b.createToken(story.owner.userId, { name: 'after-import' });
    apiA = story.fb.api(story.owner.token);
    apiB = b.api(token.token);
  });
  after(async () => {
    await b?.stop();
    await story?.fb.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** GET on both; the answers (status and body) must be equal. */
  async function same(path: string) {
    const [fromA, fromB] = await Promise.all([apiA.get(path), apiB.get(path)]);
    expect(fromA.status, `${path} on A: ${JSON.stringify(fromA.body).slice(0, 200)}`).to.equal(200);
    expect({ status: fromB.status, body: fromB.body }, path).to.deep.equal({
      status: fromA.status,
      body: fromA.body,
    });
    return fromA.body;
  }

  /** Every page of a paged listing, following the cursors on both. */
  async function samePages(path: string) {
    let cursor: string | null = null;
    do {
      const sep = path.includes('?') ? '&' : '?';
      const body: { nextCursor: string | null } = await same(
        `${path}${sep}pageSize=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      cursor = body.nextCursor;
    } while (cursor);
  }

  it('answers every read of the workspace alike', async () => {
    const ws = `/v1/workspaces/${SLUG}`;
    await same(`${ws}/products`);
    await samePages(`${ws}/products/APP/items`);
    for (const key of ['APP-1', 'APP-2']) {
      const item = `${ws}/products/APP/items/${key}`;
      await same(item);
      await same(`${item}/replies`);
      await samePages(`${item}/history`);
      const history = (await apiA.get(`${item}/history?pageSize=200`)).body.items;
      for (const change of history) {
        await same(`${item}/as-of?revision=${change.revision}`);
        await same(`${item}/as-of?at=${change.occurredAt}`);
      }
      await same(`/v1/items/${key}`);
    }
    const people = await same(`${ws}/people?pageSize=200`);
    for (const person of people.items) await same(`${ws}/people/${person.id}`);
    await samePages(`${ws}/people`);
    await same(`${ws}/followup`);
    await same(`${ws}/products/APP/summary`);
    await samePages(`${ws}/audit`);
    await samePages(`${ws}/audit?type=ItemReplied`);
    await same(`/v1/public/${SLUG}/APP/roadmap`);
  });

  it('keeps the positions, so history and the audit trail name the same log positions', async () => {
    const a = await apiA.get(`/v1/workspaces/${SLUG}/audit?pageSize=200`);
    const fromB = await apiB.get(`/v1/workspaces/${SLUG}/audit?pageSize=200`);
    expect(fromB.body.items.map((c: { position: string }) => c.position)).to.deep.equal(
      a.body.items.map((c: { position: string }) => c.position),
    );
    expect(a.body.items.length).to.be.greaterThan(20);
  });

  it('refuses to import again into the instance that now holds it', async () => {
    const file = join(dir, 'again.jsonl');
    await exportWorkspace(
      story.fb.runtime.runtime.stores.rawEventStore,
      { id: story.ws.workspaceId, slug: SLUG, name: 'Acme' },
      file,
    );
    let refused: unknown;
    await importWorkspace(b.runtime.runtime.stores.rawEventStore, file).catch((e) => {
      refused = e;
    });
    expect((refused as Error).message).to.match(/not empty/);
  });
});
