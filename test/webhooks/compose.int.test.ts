/**
 * Issue 18: "`item` (the Item record as the spec defines it, after the change)" and per type
 * what changed. A message is built from the event's own position — the item folded from its
 * stream up to that event — so it describes the change as it was even when later events have
 * already moved the item (a worker running behind, a reader far back in the feed).
 */
import { expect } from 'chai';
import * as actions from '../../src/feedback/actions/index.js';
import { createComposer } from '../../src/webhooks/messages/compose.js';
import { createCommandHandler } from '../../src/write/command-handler.js';
import { openTestStores, type TestStores } from '../support/stores.js';
import { type ProjectionEngine, seedBoard, startProjections } from './support/board.js';
import { withPersonIds } from '../support/person-ids.js';

describe('Composing webhook messages from the log (integration)', () => {
  let stores: TestStores;
  let engine: ProjectionEngine;
  let workspaceId: string;
  let keys: string[];

  before(async () => {
    stores = await openTestStores();
    engine = await startProjections(stores);
    const deps = withPersonIds({
      commandHandler: createCommandHandler(stores.eventStore),
      readStore: stores.readStore,
      eventStore: stores.eventStore,
    });
    const context = (via?: string) => ({ actor: 'u1', now: 1_000, ...(via ? { via } : {}) });
    workspaceId = await seedBoard(stores, context);
    keys = [];
    for (const body of ['First', 'Second']) {
      const { itemKey } = await actions.submitFeedback(deps, context('pat:laptop'), {
        workspaceId,
        productKey: 'APP',
        body,
        requester: { email: 'someone@example.com', displayName: 'Someone' },
      });
      keys.push(itemKey);
    }
    const [first, second] = keys as [string, string];
    const at = { workspaceId, productKey: 'APP' };
    await actions.updateItemStatus(deps, context(), { ...at, itemKey: first, status: 'shipped' });
    await actions.tagItem(deps, context(), { ...at, itemKey: first, tagIds: ['ux'] });
    await actions.tagItem(deps, context(), { ...at, itemKey: first, tagIds: ['ux', 'export'] });
    await actions.mergeItems(deps, context(), { ...at, survivorKey: first, mergedKeys: [second] });
    await engine.waitFor(await stores.eventStore.headPosition());
  });
  after(async () => {
    await engine.stop();
    await stores.cleanup();
  });

  async function messagesOf(itemKey: string) {
    const composer = createComposer({ eventStore: stores.eventStore, readStore: stores.readStore });
    const events = await stores.eventStore.readStream(`item-${workspaceId}.${itemKey}`);
    return Promise.all(events.map((e) => composer.compose(e)));
  }

  it('describes each change with the item as it was right after it', async () => {
    const messages = (await messagesOf(keys[0]!)) as any[];
    expect(messages.map((m) => m.type)).to.deep.equal([
      'item.created',
      'item.status_changed',
      'item.tagged',
      'item.tagged',
      'item.merged',
    ]);
    expect(
      messages.map((m) => [m.data.sequence, m.data.item.status, m.data.item.tagIds]),
    ).to.deep.equal([
      [0, 'new', []],
      [1, 'shipped', []],
      [2, 'shipped', ['ux']],
      [3, 'shipped', ['ux', 'export']],
      [4, 'shipped', ['ux', 'export']],
    ]);
    expect(messages[1].data.previousStatus).to.equal('new');
    expect(messages[3].data).to.include.keys('tagIds', 'previousTagIds');
    expect(messages[3].data.previousTagIds).to.deep.equal(['ux']);
    expect(messages[4].data).to.include({ survivorKey: keys[0] });
    expect(messages[4].data.mergedKeys).to.deep.equal([keys[1]]);
    expect(messages[0].data.via).to.equal('pat:laptop');
    expect(messages[1].data).not.to.have.property('via');
  });

  it('gives the merged item its own item.merged message naming the survivor', async () => {
    const messages = (await messagesOf(keys[1]!)) as any[];
    const merged = messages.at(-1);
    expect(merged.type).to.equal('item.merged');
    expect(merged.data).to.include({ survivorKey: keys[0], itemKey: keys[1] });
  });

  it('builds the same message however the log is walked (the fold cache is only a shortcut)', async () => {
    const events = await stores.eventStore.readStream(`item-${workspaceId}.${keys[0]}`);
    const walked = createComposer({ eventStore: stores.eventStore, readStore: stores.readStore });
    const inOrder = [];
    for (const e of events) inOrder.push(await walked.compose(e));
    const backwards = createComposer({
      eventStore: stores.eventStore,
      readStore: stores.readStore,
    });
    const reversed = [];
    for (const e of [...events].reverse()) reversed.unshift(await backwards.compose(e));
    expect(reversed).to.deep.equal(inOrder);
  });

  it('sends a withdrawn +1 as item.updated, like the +1 it undoes', async () => {
    // README, webhooks: item.updated is "title or body edited, or a +1 given or withdrawn"
    const deps = withPersonIds({
      commandHandler: createCommandHandler(stores.eventStore),
      readStore: stores.readStore,
    });
    const context = { actor: 'u1', now: 2_000 };
    const { personId } = await actions.registerPerson(deps, context, {
      workspaceId,
      requester: { email: 'ana@example.com', displayName: 'Ana' },
    });
    const input = { workspaceId, itemKey: keys[0]!, personId };
    await actions.addPlusOne(deps, context, input);
    await actions.withdrawPlusOne(deps, context, input);
    type Message = {
      type: string;
      data: { changedFields: string[]; item: { plusOneCount: number } };
    };
    const [given, withdrawn] = ((await messagesOf(keys[0]!)) as Message[]).slice(-2) as [
      Message,
      Message,
    ];
    for (const message of [given, withdrawn]) {
      expect(message.type).to.equal('item.updated');
      expect(message.data.changedFields).to.deep.equal(['plusOneCount']);
    }
    expect(given.data.item.plusOneCount).to.equal(withdrawn.data.item.plusOneCount + 1);
  });
});
