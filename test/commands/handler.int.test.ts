import { expect } from 'chai';
import { Conflict, FailedPrecondition } from '../../commands/shared/errors.js';
import { createCommandHandler } from '../../src/commands/handler.js';
import type { EventStore } from '../../src/eventstore/types.js';
import { counter } from '../support/counter.js';
import { openTestStores, type TestStores } from '../support/stores.js';

const ctx = { actor: 'user-1', via: 'pat:ci', now: 1_700_000_000_000 };

describe('Command handling (load → fold → decide → append)', () => {
  let stores: TestStores;
  beforeEach(async () => {
    stores = await openTestStores();
  });
  afterEach(() => stores.cleanup());

  describe('When a command is handled on a new stream', () => {
    it('appends the decided events with the metadata of the command', async () => {
      const commands = createCommandHandler(stores.eventStore);
      const result = await commands.handle('counter-a', counter, { type: 'Increment', by: 2 }, ctx);
      expect(result.state).to.deep.equal({ total: 2 });
      expect(result.revision).to.equal(0);
      const [event] = await stores.eventStore.readStream('counter-a');
      expect(event!.type).to.equal('CounterIncremented');
      expect(event!.metadata).to.include({ actor: 'user-1', via: 'pat:ci', occurredAt: ctx.now });
      expect(event!.metadata.correlationId).to.be.a('string').and.not.empty;
      expect(result.position).to.equal(event!.position);
    });
  });

  describe('When the decider decides nothing', () => {
    it('appends nothing and reports no position', async () => {
      const commands = createCommandHandler(stores.eventStore);
      const result = await commands.handle('counter-b', counter, { type: 'Touch' }, ctx);
      expect(result.position).to.equal(null);
      expect(await stores.eventStore.readStream('counter-b')).to.have.length(0);
    });
  });

  describe('When a domain rule is violated', () => {
    it('throws the typed error and appends nothing', async () => {
      const commands = createCommandHandler(stores.eventStore);
      let caught: unknown;
      try {
        await commands.handle('counter-c', counter, { type: 'Increment', by: 2_000_000 }, ctx);
      } catch (error) {
        caught = error;
      }
      expect(caught).to.be.instanceOf(FailedPrecondition);
      expect(await stores.eventStore.readStream('counter-c')).to.have.length(0);
    });
  });

  describe('When many writers with their own caches race on one stream', () => {
    it('retries on the concurrency conflict so every command lands exactly once', async () => {
      const handlers = Array.from({ length: 5 }, () =>
        createCommandHandler(stores.eventStore, { maxAttempts: 100 }),
      );
      await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          handlers[i % handlers.length]!.handle(
            'counter-d',
            counter,
            { type: 'Increment', by: 1 },
            ctx,
          ),
        ),
      );
      const events = await stores.eventStore.readStream('counter-d');
      expect(events.map((e) => e.revision)).to.deep.equal(events.map((_, i) => i));
      expect(events).to.have.length(40);
    });
  });

  describe('When another process appends to a stream the handler has cached', () => {
    it('folds the new tail before deciding', async () => {
      const a = createCommandHandler(stores.eventStore);
      const b = createCommandHandler(stores.eventStore);
      await a.handle('counter-e', counter, { type: 'Increment', by: 1 }, ctx);
      await b.handle('counter-e', counter, { type: 'Increment', by: 10 }, ctx);
      const result = await a.handle('counter-e', counter, { type: 'Increment', by: 100 }, ctx);
      expect(result.state.total).to.equal(111);
      expect(result.revision).to.equal(2);
    });
  });

  describe('When every attempt loses to a concurrent writer', () => {
    it('gives up after the bounded attempts with a Conflict', async () => {
      const store = stores.eventStore;
      // Another writer slips in before each of our appends.
      const contended: EventStore = {
        ...store,
        adapter: store.adapter,
        readStream: (s, o) => store.readStream(s, o),
        async appendToStream(streamId, events, options) {
          await store.appendToStream(streamId, [
            { type: 'CounterIncremented', data: { by: 1 }, metadata: { ...events[0]!.metadata } },
          ]);
          return store.appendToStream(streamId, events, options);
        },
      };
      const commands = createCommandHandler(contended, { maxAttempts: 3 });
      let caught: unknown;
      try {
        await commands.handle('counter-f', counter, { type: 'Increment', by: 5 }, ctx);
      } catch (error) {
        caught = error;
      }
      expect(caught).to.be.instanceOf(Conflict);
      const events = await store.readStream('counter-f');
      expect(events.map((e) => (e.data as { by: number }).by)).to.deep.equal([1, 1, 1]);
    });
  });

  describe('When a client retries with the same Idempotency-Key', () => {
    it('returns the first result without appending again', async () => {
      const keyed = { ...ctx, idempotencyKey: 'key-1' };
      const first = await createCommandHandler(stores.eventStore).handle(
        'counter-g',
        counter,
        { type: 'Increment', by: 3 },
        keyed,
      );
      // a fresh handler (e.g. after a restart) must find the key on the stream itself
      const retry = await createCommandHandler(stores.eventStore).handle(
        'counter-g',
        counter,
        { type: 'Increment', by: 3 },
        keyed,
      );
      expect(retry.replayed).to.equal(true);
      expect(retry.events.map((e) => e.id)).to.deep.equal(first.events.map((e) => e.id));
      expect(await stores.eventStore.readStream('counter-g')).to.have.length(1);
    });

    it('rejects the same key with a different command as a Conflict', async () => {
      const keyed = { ...ctx, idempotencyKey: 'key-2' };
      const commands = createCommandHandler(stores.eventStore);
      await commands.handle('counter-h', counter, { type: 'Increment', by: 3 }, keyed);
      let caught: unknown;
      try {
        await commands.handle('counter-h', counter, { type: 'Increment', by: 4 }, keyed);
      } catch (error) {
        caught = error;
      }
      expect(caught).to.be.instanceOf(Conflict);
      expect(await stores.eventStore.readStream('counter-h')).to.have.length(1);
    });
  });
});
