import { expect } from 'chai';
import { itemStreamId } from '../../../commands/item/index.js';
import { productStreamId } from '../../../commands/product/index.js';
import { NotFound } from '../../../commands/shared/errors.js';
import { getItem } from '../../../projections/items/index.js';
import { getProduct } from '../../../projections/products/index.js';
import { submitFeedback, updateProduct } from '../../../src/feedback/actions/index.js';
import { countEvents, ctx, pausingBefore, SimulatedCrash, withWorld } from './harness.js';
import { seedBoard, submitAs } from './seed.js';
import { withPersonIds } from '../../support/person-ids.js';

describe('When feedback is submitted', () => {
  it('numbers items per product, derives a blank title and reuses the person of an e-mail', async () => {
    await withWorld(async (world) => {
      const { workspaceId } = await seedBoard(world);
      const first = await submitAs(
        world,
        workspaceId,
        'ann@x.io',
        'Night theme please\nIt hurts my eyes',
      );
      const second = await submitAs(world, workspaceId, 'ANN@x.io');
      expect([first.itemKey, second.itemKey]).to.deep.equal(['ACME-1', 'ACME-2']);
      expect(second.personId).to.equal(first.personId);
      await world.caughtUp(second.position);
      const found = await getItem(world.readStore, {
        workspaceId,
        productKey: 'ACME',
        itemKey: 'ACME-1',
      });
      // spec: title "when the submitter left it blank, derived from the opening of the body"
      expect(found!.item.title).to.equal('Night theme please');
      expect(found!.item.author).to.deep.equal({ tier: 'email', displayName: 'ann', avatar: null });
      expect(found!.item).to.not.have.property('via');
      const product = await getProduct(world.readStore, { workspaceId, key: 'ACME' });
      expect(product).to.include({ itemCount: 2, nextItemNumber: 3 });
    });
  });

  it('refuses a private product to the public as not found', async () => {
    await withWorld(async (world) => {
      const { workspaceId } = await seedBoard(world);
      await updateProduct({ commandHandler: world.handler }, ctx(), {
        workspaceId,
        key: 'ACME',
        visibility: 'private',
      });
      let thrown: unknown;
      try {
        await submitAs(world, workspaceId, 'ann@x.io');
      } catch (error) {
        thrown = error;
      }
      expect(thrown).to.be.instanceOf(NotFound);
      expect(await countEvents(world.events, 'ItemCaptured')).to.equal(0);
    });
  });

  it('writes nothing, not even the person, when the product turns private during the submission', async () => {
    // README: "Nothing refused reaches the event log"
    await withWorld(async (world) => {
      const { workspaceId } = await seedBoard(world);
      const paused = pausingBefore(
        world.handler,
        productStreamId(workspaceId, 'ACME'),
        'AllocateItemNumber',
        () =>
          updateProduct({ commandHandler: world.handler }, ctx(), {
            workspaceId,
            key: 'ACME',
            visibility: 'private',
          }),
      );
      const refused = await submitFeedback(
        withPersonIds({ commandHandler: paused, readStore: world.readStore }),
        ctx(),
        {
          workspaceId,
          productKey: 'ACME',
          body: 'Export to CSV',
          requester: { email: 'vis@x.io', displayName: 'Vis' },
        },
      ).catch((error: unknown) => error);
      expect(refused).to.be.instanceOf(NotFound);
      expect(await countEvents(world.events, 'PersonCreated')).to.equal(0);
    });
  });

  it('a retry with the same Idempotency-Key after a crash before capture files one item under the same number', async () => {
    await withWorld(async (world) => {
      const { workspaceId } = await seedBoard(world);
      const input = {
        workspaceId,
        productKey: 'ACME',
        body: 'Export to CSV',
        requester: { email: 'bo@x.io' },
      };
      const context = ctx({ idempotencyKey: 'k-1', via: 'pat:laptop' });
      const crashing = world.crashingOn(itemStreamId(workspaceId, 'ACME-1'));
      let thrown: unknown;
      try {
        await submitFeedback(
          withPersonIds({ commandHandler: crashing, readStore: world.readStore }),
          context,
          input,
        );
      } catch (error) {
        thrown = error;
      }
      expect(thrown).to.be.instanceOf(SimulatedCrash);
      const retried = await submitFeedback(
        withPersonIds({ commandHandler: world.handler, readStore: world.readStore }),
        context,
        input,
      );
      const again = await submitFeedback(
        withPersonIds({ commandHandler: world.handler, readStore: world.readStore }),
        context,
        input,
      );
      expect([retried.itemKey, again.itemKey]).to.deep.equal(['ACME-1', 'ACME-1']);
      expect(await countEvents(world.events, 'ItemNumberAllocated')).to.equal(1);
      expect(await countEvents(world.events, 'ItemCaptured')).to.equal(1);
      const next = await submitAs(world, workspaceId, 'cy@x.io');
      expect(next.itemKey).to.equal('ACME-2');
      await world.caughtUp();
      const found = await getItem(world.readStore, {
        workspaceId,
        productKey: 'ACME',
        itemKey: 'ACME-1',
      });
      expect(found!.item.via).to.equal('pat:laptop');
      expect((await world.events.readStream(productStreamId(workspaceId, 'ACME'))).length).to.equal(
        3,
      );
    });
  });

  it('a retry sent across an upgrade files under the number its first attempt was given', async () => {
    // upgrade audit: the submission id is derived from the caller too since, so a retry of a
    // submission numbered before the upgrade (and crashed before capture) must follow the
    // number recorded with its key, not look for its new id
    await withWorld(async (world) => {
      const { workspaceId } = await seedBoard(world);
      const stream = productStreamId(workspaceId, 'ACME');
      const metadata = {
        actor: 'u1',
        occurredAt: 1,
        correlationId: 'c',
        causationId: null,
        idempotencyKey: 'k-old',
        commandHash: 'legacyHash',
      };
      const data = { number: 1, itemKey: 'ACME-1', submissionId: 'the-old-derivation' };
      await world.events.appendToStream(stream, [{ type: 'ItemNumberAllocated', data, metadata }]);
      const input = {
        workspaceId,
        productKey: 'ACME',
        body: 'CSV',
        requester: { email: 'bo@x.io' },
      };
      const context = ctx({ actor: 'u1', idempotencyKey: 'k-old' });
      const retried = await submitFeedback(
        withPersonIds({ commandHandler: world.handler, readStore: world.readStore }),
        context,
        input,
      );
      expect(retried.itemKey).to.equal('ACME-1');
      expect(await countEvents(world.events, 'ItemNumberAllocated')).to.equal(1);
    });
  });

  it("another caller's request under the same Idempotency-Key is another submission", async () => {
    // the Idempotency-Key "belongs to whoever sent it" (deps.ts idFor): a key another caller
    // happened to use must not block this caller's feedback
    await withWorld(async (world) => {
      const { workspaceId } = await seedBoard(world);
      const input = (email: string) => ({
        workspaceId,
        productKey: 'ACME',
        body: 'Export to CSV',
        requester: { email },
      });
      const deps = withPersonIds({ commandHandler: world.handler, readStore: world.readStore });
      const first = await submitFeedback(
        deps,
        ctx({ actor: 'u1', idempotencyKey: 'k' }),
        input('bo@x.io'),
      );
      const other = await submitFeedback(
        deps,
        ctx({ actor: 'u2', idempotencyKey: 'k' }),
        input('cy@x.io'),
      );
      const retried = await submitFeedback(
        deps,
        ctx({ actor: 'u1', idempotencyKey: 'k' }),
        input('bo@x.io'),
      );
      expect([first.itemKey, other.itemKey, retried.itemKey]).to.deep.equal([
        'ACME-1',
        'ACME-2',
        'ACME-1',
      ]);
    });
  });
});
