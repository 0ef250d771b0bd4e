/**
 * A public board page while a projector lags on another workspace's events, over real HTTP.
 * README (Public board): a page waits for the read models to include the changes to its own
 * product and workspace that the log holds — other processes' writes show within 50 ms — and
 * for nothing else. The audit found the page's cache check (`readVersion`) waiting for the log's
 * head instead: while any projector was behind, a visitor's page waited PROJECTION_WAIT_MS and
 * was answered 503. A visitor's own +1 still shows on the page it is sent back to
 * (read-your-writes, DESIGN.md: "the next GET by that client sees the write").
 */
import { expect } from 'chai';
import type { Projector } from '../../../projections/shared/projector.js';
import * as actions from '../../../src/feedback/actions/index.js';
import { createFeedbackService } from '../../../src/feedback/service.js';
import { withProjector } from '../../support/gated-projector.js';
import { startTestRuntime, type TestRuntime } from '../../support/runtime.js';
import { BoardVisitor } from './support.js';

const WAIT_MS = 300;
const POLL_MS = 50; // the board asks the log at most this often (src/feedback/board/index.ts)
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** a projector that holds the engine at the first item event under `hold.prefix`, once set */
function heldOnPrefix() {
  const hold = { prefix: '\0' };
  let release = () => {};
  const open = new Promise<void>((resolve) => {
    release = resolve;
  });
  let enter = () => {};
  const reached = new Promise<void>((resolve) => {
    enter = resolve;
  });
  const projector: Projector = {
    name: 'boardstall',
    collections: [],
    filter: { streamPrefixes: ['item-'] },
    async apply(event) {
      if (!event.streamId.startsWith(hold.prefix)) return;
      enter();
      await open;
    },
  };
  return { hold, projector, reached, release: () => release() };
}

describe('A public board page while a projector lags on another workspace (e2e)', function () {
  this.timeout(60_000);
  const gate = heldOnPrefix();
  let t: TestRuntime;
  let token: string;
  let visitor: BoardVisitor;
  let planned: string;
  const base = () => t.url('feedback');
  const submit = async (slug: string, key: string, title: string) => {
    const res = await fetch(`${base()}/v1/public/${slug}/${key}/feedback`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title, body: `${title}, please` }),
    });
    const text = await res.text();
    return { status: res.status, text };
  };
  /** a page of the lagging-free board, timed */
  const view = async (path: string) => {
    await pause(POLL_MS + 10); // past the board's poll: this view asks the log
    const started = performance.now();
    const page = await visitor.get(path);
    return { ...page, ms: performance.now() - started };
  };

  before(async () => {
    t = await startTestRuntime([withProjector(createFeedbackService(), gate.projector)], {
      PROJECTION_WAIT_MS: String(WAIT_MS),
    });
    const { runtime } = t;
    const deps = {
      commandHandler: runtime.context.commandHandler,
      readStore: runtime.stores.readStore,
    };
    const context = { actor: null, now: Date.now() };
    const { userId } = await actions.createUser(deps, context, {
      email: 'boards@example.com',
      displayName: 'Boards',
    });
    for (const [slug, key] of [
      ['calm-team', 'APP'],
      ['busy-team', 'OTH'],
    ] as const) {
      const { workspaceId } = await actions.createWorkspace(deps, context, {
        slug,
        name: slug,
        ownerId: userId,
      });
      await actions.createProduct(deps, context, {
        workspaceId,
        key,
        name: key,
        visibility: 'public',
      });
      if (slug === 'busy-team') gate.hold.prefix = `item-${workspaceId}.`;
    }
    ({ token } = await actions.createToken(deps, context, { ownerId: userId, name: 'cli' }));
    const filed = await submit('calm-team', 'APP', 'Calendar view');
    expect(filed.status, filed.text).to.equal(200);
    planned = (JSON.parse(filed.text) as { itemId: string }).itemId;
    visitor = new BoardVisitor(base());
  });
  after(async () => {
    gate.release();
    await t?.stop();
  });

  it("answers a board's pages at once while a projector is stuck on another workspace's item, and its own product's change still waits", async () => {
    // read-your-writes first, while nothing lags: the visitor's +1 is on the page it is sent to
    const voted = await visitor.post(`/calm-team/APP/items/${planned}/plus-one`, { back: 'item' });
    expect(voted.status, voted.text).to.equal(303);
    const back = await visitor.get(voted.headers.get('location')!);
    expect(back.status).to.equal(200);
    expect(/class="count">(\d+)</.exec(back.text)?.[1], 'the +1 on the page').to.equal('1');

    // another workspace's item holds every projector from here on (its write answers 503)
    const held = await submit('busy-team', 'OTH', 'Held at the gate');
    expect(held.status, held.text).to.equal(503);
    await gate.reached;
    const more = await submit('busy-team', 'OTH', 'Also lacking');
    expect(more.status, more.text).to.equal(503);

    for (const path of [
      '/calm-team/APP',
      `/calm-team/APP/items/${planned}`,
      '/calm-team/APP/roadmap',
    ]) {
      const page = await view(path);
      expect(page.status, `${path}: ${page.text.slice(0, 300)}`).to.equal(200);
      expect(page.ms, `${path} not held for PROJECTION_WAIT_MS`).to.be.below(WAIT_MS);
      if (!path.endsWith('/roadmap')) expect(page.text).to.include('Calendar view');
    }
    const anonymous = new BoardVisitor(base());
    await pause(POLL_MS + 10);
    const started = performance.now();
    const shared = await anonymous.get('/calm-team/APP');
    expect(shared.status).to.equal(200);
    expect(performance.now() - started, 'the cached page too').to.be.below(WAIT_MS);

    // a change to the board's own product that the read models lack is waited for, as before
    const own = await submit('calm-team', 'APP', 'Lacking on this board');
    expect(own.status, own.text).to.equal(503);
    const waited = await view('/calm-team/APP');
    expect(waited.status).to.equal(503);
    expect(waited.ms).to.be.at.least(WAIT_MS - 20);
  });
});
