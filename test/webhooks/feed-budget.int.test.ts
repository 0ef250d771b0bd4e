/**
 * list_events over a slow event store. README "Catching up": "A page may be short, even empty,
 * before the end; keep following `nextCursor`" and "each message comes exactly once". A page
 * stops looking once it has run for its time budget (src/webhooks/feed.ts) and answers what it
 * has, with a cursor after the last event it looked at — so a slow store makes pages short, never
 * minutes long, and paging on still yields every message once, in order.
 */
import { expect } from 'chai';
import * as actions from '../../src/feedback/actions/index.js';
import type { EventStore } from '../../src/eventstore/types.js';
import { readFeed } from '../../src/webhooks/feed.js';
import { createComposer } from '../../src/webhooks/messages/compose.js';
import { createCommandHandler } from '../../src/write/command-handler.js';
import { openTestStores, type TestStores } from '../support/stores.js';
import { type ProjectionEngine, seedBoard, startProjections } from './support/board.js';
import { withPersonIds } from '../support/person-ids.js';

const ITEMS = 12;
const STREAM_READ_MS = 40;
const BUDGET_MS = 150;

/** the store as a server that takes STREAM_READ_MS to answer each stream read */
function slowStreams(store: EventStore): EventStore {
  return new Proxy(store, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (property !== 'readStream')
        return typeof value === 'function' ? value.bind(target) : value;
      return async (...args: Parameters<EventStore['readStream']>) => {
        await new Promise((resolve) => setTimeout(resolve, STREAM_READ_MS));
        return target.readStream(...args);
      };
    },
  });
}

describe('When list_events pages over a slow event store (integration)', () => {
  let stores: TestStores;
  let engine: ProjectionEngine;
  let workspaceId: string;

  before(async () => {
    stores = await openTestStores();
    engine = await startProjections(stores);
    const deps = withPersonIds({
      commandHandler: createCommandHandler(stores.eventStore),
      readStore: stores.readStore,
    });
    const context = () => ({ actor: 'u1', now: 1_000 });
    workspaceId = await seedBoard(stores, context);
    // one stream each: every message folds its item from a stream read
    for (let i = 0; i < ITEMS; i++) {
      await actions.submitFeedback(deps, context(), {
        workspaceId,
        productKey: 'APP',
        body: `Item ${i}`,
        requester: { email: 'someone@example.com', displayName: 'Someone' },
      });
    }
    await engine.waitFor(await stores.eventStore.headPosition());
  });
  after(async () => {
    await engine.stop();
    await stores.cleanup();
  });

  it('answers a short page at its time budget, and the pages after it hold every message once', async () => {
    const eventStore = slowStreams(stores.eventStore);
    const composer = createComposer({ eventStore, readStore: stores.readStore });
    const deps = { eventStore, composer, waitFor: engine.waitFor, budgetMs: BUDGET_MS };
    const query = { workspaceId, types: null, productKey: null, pageSize: 50 };
    const pages: number[] = [];
    const keys: string[] = [];
    let after = 0n;
    for (let i = 0; i < 100; i++) {
      const page = await readFeed(deps, { ...query, after });
      if (page.messages.length === 0 && page.next === after) break;
      expect(page.next > after, 'a page always moves the cursor on').to.equal(true);
      pages.push(page.messages.length);
      keys.push(...page.messages.map((m) => ('itemKey' in m.data ? m.data.itemKey : m.type)));
      after = page.next;
    }
    // 12 stream reads of 40 ms do not fit in 150 ms: the first page stopped short of all 12
    expect(pages[0], 'the first page').to.be.within(1, ITEMS - 1);
    expect(keys).to.deep.equal(Array.from({ length: ITEMS }, (_, i) => `APP-${i + 1}`));
  });
});
