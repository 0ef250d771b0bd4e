/**
 * list_events' first page starts at the workspace's creation (src/webhooks/feed.ts): nothing of
 * a workspace comes before it in the log. A page looks at SCAN_LIMIT events of other workspaces
 * at most, so a new workspace in a log with a long past used to answer its first pages empty,
 * one SCAN_LIMIT at a time, before reaching its own first message.
 */
import { expect } from 'chai';
import * as actions from '../../src/feedback/actions/index.js';
import { readFeed, SCAN_LIMIT } from '../../src/webhooks/feed.js';
import { createComposer } from '../../src/webhooks/messages/compose.js';
import { createCommandHandler } from '../../src/write/command-handler.js';
import { openTestStores, type TestStores } from '../support/stores.js';
import { type ProjectionEngine, seedBoard, startProjections } from './support/board.js';
import { withPersonIds } from '../support/person-ids.js';

/** events of a stream no projector or message reads, before the workspace exists */
const PAST = SCAN_LIMIT + 500;

describe('When a workspace is created in a log with a long past (integration)', () => {
  let stores: TestStores;
  let engine: ProjectionEngine;
  let workspaceId: string;

  before(async () => {
    stores = await openTestStores();
    for (let at = 0; at < PAST; at += 500) {
      const events = Array.from({ length: 500 }, (_, i) => ({
        type: 'SomethingElseHappened',
        data: { n: at + i },
        metadata: { actor: 'u0', occurredAt: 1_000, correlationId: 'past', causationId: null },
      }));
      await stores.eventStore.appendToStream('elsewhere-1', events);
    }
    engine = await startProjections(stores);
    const context = () => ({ actor: 'u1', now: 2_000 });
    workspaceId = await seedBoard(stores, context);
    await actions.submitFeedback(
      withPersonIds({
        commandHandler: createCommandHandler(stores.eventStore),
        readStore: stores.readStore,
      }),
      context(),
      {
        workspaceId,
        productKey: 'APP',
        body: 'The first item of a new workspace',
        requester: { email: 'someone@example.com', displayName: 'Someone' },
      },
    );
    await engine.waitFor(await stores.eventStore.headPosition());
  });
  after(async () => {
    await engine?.stop();
    await stores.cleanup();
  });

  it('answers its first message on the first page, without paging through the past', async () => {
    const composer = createComposer({ eventStore: stores.eventStore, readStore: stores.readStore });
    const page = await readFeed(
      { eventStore: stores.eventStore, composer, waitFor: engine.waitFor },
      { workspaceId, after: 0n, types: null, productKey: null, pageSize: 50 },
    );
    expect(page.messages.map((m) => m.type)).to.deep.equal(['item.created']);
  });
});
