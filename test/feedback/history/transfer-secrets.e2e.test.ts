/**
 * A workspace moved between two installations with different secrets (APP_SECRET): person ids
 * are keyed under the secret (src/feedback/actions/person-ids.ts), so the target derives other
 * ids for the same addresses than the source did. The rule: "one person per (workspace, e-mail)"
 * — an address that was a person on the source is that same person on the target, whoever files
 * or votes as it next; it never becomes a second person.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { exportWorkspace } from '../../../src/feedback/transfer/export.js';
import { importWorkspace } from '../../../src/feedback/transfer/import.js';
import { type Api, type FeedbackHarness, startFeedback } from '../support/harness.js';
import { SLUG, type Story, tellStory } from './story.js';

const SOURCE = { APP_SECRET: 'transfer-source-secret-0123456789abcdef' };
const TARGET = { APP_SECRET: 'transfer-target-secret-fedcba9876543210' };

describe('A workspace moved to an installation with another APP_SECRET (e2e, two services)', () => {
  let story: Story;
  let b: FeedbackHarness;
  let apiB: Api;
  let dir: string;
  const people = async () =>
    (await apiB.get(`/v1/workspaces/${SLUG}/people?pageSize=200`)).body.items as {
      id: string;
      email: string | null;
    }[];

  before(async function () {
    this.timeout(180_000);
    story = await tellStory({ env: SOURCE });
    dir = mkdtempSync(join(tmpdir(), 'transfer-secrets-'));
    const file = join(dir, 'acme.jsonl');
    await exportWorkspace(
      story.fb.runtime.runtime.stores.rawEventStore,
      { id: story.ws.workspaceId, slug: SLUG, name: 'Acme' },
      file,
    );
    b = await startFeedback({ env: TARGET, clock: story.fb.clock });
    await importWorkspace(b.runtime.runtime.stores.rawEventStore, file);
    await b.caughtUp();
    apiB = b.api((await b.createToken(story.owner.userId, { name: 'after-import' })).token);
  });
  after(async () => {
    await b?.stop();
    await story?.fb.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('files a capture for an existing address under the person the source had', async () => {
    const before = await people();
    const res = await apiB.post(`/v1/public/${SLUG}/APP/feedback`, {
      body: 'And a high-contrast theme',
      email: 'Ann@Customer.io',
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    await b.caughtUp();
    const after = await people();
    expect(after.map((p) => p.id).sort()).to.deep.equal(before.map((p) => p.id).sort());
    const ann = await apiB.get(`/v1/workspaces/${SLUG}/people/${story.ann}`);
    const filed = ann.body.items.filter((i: { role: string }) => i.role === 'submitted');
    expect(filed.map((i: { id: string }) => i.id)).to.include(res.body.itemId);
  });

  it('votes and files as the same person for every address the source knew (+1, board)', async () => {
    const { personIds } = b.deps();
    const context = b.context();
    for (const [email, id] of [
      ['dee@customer.io', story.dee],
      ['ann@customer.io', story.ann],
    ] as const) {
      expect(await personIds.resolve(story.ws.workspaceId, { email }, context), email).to.equal(id);
      expect(await personIds.known(story.ws.workspaceId, { email }), email).to.equal(id);
    }
  });

  it('still makes a new person for an address the workspace never had', async () => {
    const { personIds } = b.deps();
    const id = await personIds.resolve(
      story.ws.workspaceId,
      { email: 'new@customer.io' },
      b.context(),
    );
    expect((await people()).map((p) => p.id)).not.to.include(id);
  });
});
