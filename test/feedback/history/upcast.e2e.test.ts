/**
 * Old event shapes stay readable (issue 15): "events carry a schema version; an upcaster per
 * changed shape turns an old event into the current one when read, never rewriting the log. Add
 * one real upcast ... with a test that stores the old shape and reads history, as-of and
 * projections from it."
 *
 * The real upcast: PlusOneAdded v1 (`{personId}`) → v2 (`{personId, addressedTo}`). The v1 shape
 * is stored as an old build wrote it — no `schemaVersion` in the metadata — straight into the
 * log, bypassing the application's event store.
 */
import { expect } from 'chai';
import { addPlusOne, registerPerson } from '../../../src/feedback/actions/index.js';
import { startFeedback } from '../support/harness.js';
import { withPersonIds } from '../../support/person-ids.js';

describe('Reading a PlusOneAdded stored in its version 1 shape (e2e)', () => {
  it('reads as version 2 in history, as-of and the read models, and stays v1 in the log', async () => {
    const fb = await startFeedback();
    try {
      const owner = await fb.createMaker('max@acme.io');
      const ws = await fb.createWorkspace(owner, { slug: 'acme-co', name: 'Acme' });
      await fb.createProduct(ws, { key: 'APP', name: 'App', visibility: 'public' });
      const { itemKey } = await fb.submit(ws, 'APP', { body: 'Dark mode', email: 'a@x.io' });
      const { stores, context } = fb.runtime.runtime;
      const { personId } = await registerPerson(
        withPersonIds(
          { commandHandler: context.commandHandler, readStore: stores.readStore },
          context.secret,
        ),
        fb.context(),
        {
          workspaceId: ws.workspaceId,
          requester: { email: 'old@customer.io', displayName: 'Olga' },
        },
      );
      const streamId = `item-${ws.workspaceId}.${itemKey}`;
      const v1 = { personId };
      await stores.rawEventStore.appendToStream(
        streamId,
        [
          {
            type: 'PlusOneAdded',
            data: v1,
            metadata: {
              actor: owner.userId,
              occurredAt: fb.clock.now(),
              correlationId: 'old',
              causationId: null,
            },
          },
        ],
        { expectedRevision: 0 },
      );
      await fb.caughtUp();
      const api = fb.api(owner.token);
      const path = `/v1/workspaces/acme-co/products/APP/items/${itemKey}`;

      // projections: the items and people read models took the +1
      const current = await api.get(path);
      expect(current.body.item.plusOneCount).to.equal(1);
      expect(current.body.participants.at(-1)).to.deep.equal({
        personId,
        role: 'plus-one',
        displayName: 'Olga',
        avatar: null,
        context: null,
      });
      const olga = await api.get(`/v1/workspaces/acme-co/people/${personId}`);
      expect(olga.body.items.map((i: { id: string }) => i.id)).to.deep.equal([itemKey]);

      // history reads it upcast: addressed to the item whose stream holds it
      const history = await api.get(`${path}/history`);
      expect(history.body.items[1]).to.deep.include({
        type: 'PlusOneAdded',
        revision: 1,
        summary: 'Olga gave a +1',
      });
      expect(history.body.items[1].changes.plusOneCount).to.deep.equal({ from: 0, to: 1 });

      // as-of answers what get_item answers
      const asOf = await api.get(`${path}/as-of?revision=1`);
      const { revision: _r, at: _a, ...answer } = asOf.body;
      expect(answer).to.deep.equal(current.body);

      // the command side folds it too: the same person's +1 again changes nothing
      const again = await addPlusOne({ commandHandler: context.commandHandler }, fb.context(), {
        workspaceId: ws.workspaceId,
        itemKey,
        personId,
      });
      expect(again.changed).to.equal(false);
      const upcast = await stores.eventStore.readStream(streamId);
      expect(upcast[1]!.data).to.deep.equal({ personId, addressedTo: itemKey });
      expect(upcast[1]!.metadata.schemaVersion).to.equal(2);

      // and the log still holds exactly what was written
      const raw = await stores.rawEventStore.readStream(streamId);
      expect(raw[1]!.data).to.deep.equal(v1);
      expect(raw[1]!.metadata).not.to.have.property('schemaVersion');
    } finally {
      await fb.stop();
    }
  });

  it('stamps new events with their current version', async () => {
    const fb = await startFeedback();
    try {
      const owner = await fb.createMaker('max@acme.io');
      const ws = await fb.createWorkspace(owner, { slug: 'acme-co', name: 'Acme' });
      await fb.createProduct(ws, { key: 'APP', name: 'App', visibility: 'public' });
      const { itemKey } = await fb.submit(ws, 'APP', { body: 'Dark mode', email: 'a@x.io' });
      const { personId } = await registerPerson(fb.deps(), fb.context(), {
        workspaceId: ws.workspaceId,
        requester: { email: 'b@x.io' },
      });
      await addPlusOne(fb.deps(), fb.context(), {
        workspaceId: ws.workspaceId,
        itemKey,
        personId,
      });
      const raw = await fb.runtime.runtime.stores.rawEventStore.readStream(
        `item-${ws.workspaceId}.${itemKey}`,
      );
      expect(raw.map((e) => [e.type, e.metadata.schemaVersion])).to.deep.equal([
        ['ItemCaptured', undefined],
        ['PlusOneAdded', 2],
      ]);
    } finally {
      await fb.stop();
    }
  });
});
