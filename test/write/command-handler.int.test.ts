import { expect } from 'chai';
import { Conflict, FailedPrecondition, Unavailable } from '../../commands/shared/errors.js';
import { createCommandHandler } from '../../src/write/command-handler.js';
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
      const commandHandler = createCommandHandler(stores.eventStore);
      const result = await commandHandler.handle(
        'counter-a',
        counter,
        { type: 'Increment', by: 2 },
        ctx,
      );
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
      const commandHandler = createCommandHandler(stores.eventStore);
      const result = await commandHandler.handle('counter-b', counter, { type: 'Touch' }, ctx);
      expect(result.position).to.equal(null);
      expect(await stores.eventStore.readStream('counter-b')).to.have.length(0);
    });
  });

  describe('When a domain rule is violated', () => {
    it('throws the typed error and appends nothing', async () => {
      const commandHandler = createCommandHandler(stores.eventStore);
      let caught: unknown;
      try {
        await commandHandler.handle(
          'counter-c',
          counter,
          { type: 'Increment', by: 2_000_000 },
          ctx,
        );
      } catch (error) {
        caught = error;
      }
      expect(caught).to.be.instanceOf(FailedPrecondition);
      expect(await stores.eventStore.readStream('counter-c')).to.have.length(0);
    });
  });

  describe('When many writers with their own caches race on one stream', () => {
    it('retries on the concurrency conflict so every command lands exactly once', async () => {
      const handlers = Array.from({ length: 5 }, () => createCommandHandler(stores.eventStore));
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

    it('never stamps an event earlier than the stream’s last one, though its own clock is behind', async () => {
      const ahead = createCommandHandler(stores.eventStore);
      const behind = createCommandHandler(stores.eventStore);
      await ahead.handle('counter-t', counter, { type: 'Increment', by: 1 }, ctx);
      const late = { ...ctx, now: ctx.now - 60_000 };
      await behind.handle('counter-t', counter, { type: 'Increment', by: 1 }, late);
      await behind.handle('counter-t', counter, { type: 'Increment', by: 1 }, late);
      const stamps = (await stores.eventStore.readStream('counter-t')).map(
        (e) => e.metadata.occurredAt,
      );
      expect(stamps).to.deep.equal([ctx.now, ctx.now, ctx.now]);
    });
  });

  describe('When the stream is cached', () => {
    // "A batch decides on its stream's cached snapshot without reading the stream: the append's
    // expected revision catches another process's appends" (command-handler.ts)
    /** the test store, counting stream reads and failed appends */
    function counting() {
      const reads: string[] = [];
      const failedAppends: number[] = [];
      const store = stores.eventStore;
      const counted: EventStore = {
        ...store,
        adapter: store.adapter,
        readStream: (s, o) => {
          reads.push(s);
          return store.readStream(s, o);
        },
        appendToStream: (s, e, o) =>
          store.appendToStream(s, e, o).catch((error) => {
            failedAppends.push(reads.length);
            throw error;
          }),
      };
      return { counted, reads, failedAppends };
    }

    it('decides and appends without reading the stream again', async () => {
      const { counted, reads } = counting();
      const handler = createCommandHandler(counted);
      await handler.handle('counter-g', counter, { type: 'Increment', by: 1 }, ctx);
      expect(reads).to.deep.equal(['counter-g']);
      const result = await handler.handle('counter-g', counter, { type: 'Increment', by: 2 }, ctx);
      expect(reads).to.deep.equal(['counter-g']);
      expect(result.state.total).to.equal(3);
      expect(result.revision).to.equal(1);
    });

    it('is not taken for shared when a load reads its own append before the lane cached it', async () => {
      // a look at a busy stream (submit_feedback's fold, made per request) read this process's
      // own append as another writer's: every later decision on the stream read it first, and
      // the hot-spot bench fell from ~60 % to ~40 % of spread-out
      const { counted, reads } = counting();
      let writing: Promise<unknown> = Promise.resolve();
      let holdReads = false;
      const racing: EventStore = {
        ...counted,
        readStream: async (s, o) => {
          // the look began before the append; its read ends after the lane cached the append
          if (holdReads) await writing;
          return counted.readStream(s, o);
        },
      };
      const handler = createCommandHandler(racing);
      await handler.handle('counter-l', counter, { type: 'Increment', by: 1 }, ctx);
      holdReads = true;
      writing = handler.handle('counter-l', counter, { type: 'Increment', by: 2 }, ctx);
      const seen = await handler.load('counter-l', counter);
      holdReads = false;
      expect(seen.state.total, 'the look saw the append').to.equal(3);
      const before = reads.length;
      const next = await handler.handle('counter-l', counter, { type: 'Increment', by: 4 }, ctx);
      expect(next.state.total).to.equal(7);
      expect(reads.length - before, 'stream reads before the next decision').to.equal(0);
    });

    it('reads the stream first again once another process is seen writing it', async () => {
      const { counted, reads, failedAppends } = counting();
      const a = createCommandHandler(counted);
      const b = createCommandHandler(stores.eventStore);
      await a.handle('counter-s', counter, { type: 'Increment', by: 1 }, ctx);
      await b.handle('counter-s', counter, { type: 'Increment', by: 1 }, ctx);
      // the cached snapshot is one behind: its append fails once, the retry reads
      await a.handle('counter-s', counter, { type: 'Increment', by: 1 }, ctx);
      expect(failedAppends).to.have.length(1);
      expect(reads).to.have.length(2);
      await b.handle('counter-s', counter, { type: 'Increment', by: 1 }, ctx);
      // from now on `a` reads before deciding: no failed append
      const result = await a.handle('counter-s', counter, { type: 'Increment', by: 1 }, ctx);
      expect(failedAppends).to.have.length(1);
      expect(reads).to.have.length(3);
      expect(result.state.total).to.equal(5);
    });

    it('after losing to another process, reads only the events appended since its snapshot', async () => {
      // a long stream (a product with thousands of items) must not be folded from its start on
      // every conflict, or a writer in another process starves behind a busy one
      const froms: (number | undefined)[] = [];
      const store = stores.eventStore;
      const counted: EventStore = {
        ...store,
        adapter: store.adapter,
        readStream: (s, o) => {
          froms.push(o?.fromRevision);
          return store.readStream(s, o);
        },
      };
      const a = createCommandHandler(counted);
      const b = createCommandHandler(stores.eventStore);
      for (let i = 0; i < 5; i++)
        await a.handle('counter-t', counter, { type: 'Increment', by: 1 }, ctx);
      await b.handle('counter-t', counter, { type: 'Increment', by: 1 }, ctx);
      froms.length = 0;
      const result = await a.handle('counter-t', counter, { type: 'Increment', by: 1 }, ctx);
      expect(result.state.total).to.equal(7);
      expect(froms).to.deep.equal([5]);
    });

    it('drops a snapshot the stored stream does not reach (a log restored from a backup)', async () => {
      const restored = await openTestStores();
      try {
        let current = stores.eventStore;
        const switching: EventStore = {
          ...stores.eventStore,
          adapter: stores.eventStore.adapter,
          readStream: (s, o) => current.readStream(s, o),
          appendToStream: (s, e, o) => current.appendToStream(s, e, o),
        };
        const a = createCommandHandler(switching, { retryDeadlineMs: 2_000 });
        for (let i = 0; i < 3; i++) {
          await a.handle('counter-r', counter, { type: 'Increment', by: 1 }, ctx);
        }
        await createCommandHandler(restored.eventStore).handle(
          'counter-r',
          counter,
          { type: 'Increment', by: 1 },
          ctx,
        );
        current = restored.eventStore; // one event where the snapshot says three
        const result = await a.handle('counter-r', counter, { type: 'Increment', by: 1 }, ctx);
        expect(result.state.total).to.equal(2);
        expect(await restored.eventStore.readStream('counter-r')).to.have.length(2);
      } finally {
        await restored.cleanup();
      }
    });

    it('reads the stream before refusing: a rule broken only in the cached state does not refuse', async () => {
      const a = createCommandHandler(stores.eventStore);
      const b = createCommandHandler(stores.eventStore);
      await a.handle('counter-h', counter, { type: 'Increment', by: 999_000 }, ctx);
      // another process takes the total down (a negative increment) after `a` cached 999,000
      await b.handle('counter-h', counter, { type: 'Increment', by: -999_000 }, ctx);
      // over 1,000,000 in a's cached state, 5,000 in the stored stream: it lands
      const result = await a.handle('counter-h', counter, { type: 'Increment', by: 5_000 }, ctx);
      expect(result.state.total).to.equal(5_000);
      expect(result.revision).to.equal(2);
    });
  });

  describe('When every attempt loses to a writer in another process', () => {
    it('retries until the deadline, then answers Unavailable (503 with Retry-After)', async () => {
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
      const commandHandler = createCommandHandler(contended, { retryDeadlineMs: 200 });
      let caught: unknown;
      const started = performance.now();
      try {
        await commandHandler.handle('counter-f', counter, { type: 'Increment', by: 5 }, ctx);
      } catch (error) {
        caught = error;
      }
      expect(caught).to.be.instanceOf(Unavailable);
      expect((caught as Unavailable).retryAfterSeconds).to.equal(1);
      // it kept trying for the whole deadline, not a fixed small count of attempts
      expect(performance.now() - started).to.be.at.least(200);
      const events = await store.readStream('counter-f');
      expect(events.length).to.be.at.least(2);
      expect(events.every((e) => (e.data as { by: number }).by === 1)).to.equal(true);
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

    it('answers with the state the first attempt left, though later commands followed', async () => {
      // CommandResult.state: "the aggregate's state right after this command"
      const handler = createCommandHandler(stores.eventStore);
      const keyed = { ...ctx, idempotencyKey: 'key-late' };
      await handler.handle('counter-r', counter, { type: 'Increment', by: 3 }, keyed);
      await handler.handle('counter-r', counter, { type: 'Increment', by: 10 }, ctx);
      const retry = await handler.handle('counter-r', counter, { type: 'Increment', by: 3 }, keyed);
      expect(retry.replayed).to.equal(true);
      expect(retry.state.total).to.equal(3);
      expect(retry.revision).to.equal(0);
    });

    it('rejects the same key with a different command as a Conflict', async () => {
      const keyed = { ...ctx, idempotencyKey: 'key-2' };
      const commandHandler = createCommandHandler(stores.eventStore);
      await commandHandler.handle('counter-h', counter, { type: 'Increment', by: 3 }, keyed);
      let caught: unknown;
      try {
        await commandHandler.handle('counter-h', counter, { type: 'Increment', by: 4 }, keyed);
      } catch (error) {
        caught = error;
      }
      expect(caught).to.be.instanceOf(Conflict);
      expect(await stores.eventStore.readStream('counter-h')).to.have.length(1);
    });

    it('answers a key first used before an upgrade as the first attempt, whatever the retry hashes to', async () => {
      // upgrade audit: what a command hash covers changed between versions (ids derived from
      // the actor too, a request's own fields), so byte-identical retries sent across an upgrade
      // were refused as "already used for a different request"
      const metadata = { actor: ctx.actor, occurredAt: 1, correlationId: 'c', causationId: null };
      const legacy = { ...metadata, idempotencyKey: 'key-old', commandHash: 'AbC-legacy_hash' };
      await stores.eventStore.appendToStream(
        'counter-u',
        [{ type: 'CounterIncremented', data: { by: 3 }, metadata: legacy }],
        { expectedRevision: 'no_stream' },
      );
      const handler = createCommandHandler(stores.eventStore);
      const keyed = { ...ctx, idempotencyKey: 'key-old' };
      const retry = await handler.handle('counter-u', counter, { type: 'Increment', by: 3 }, keyed);
      expect(retry.replayed).to.equal(true);
      expect(retry.state.total).to.equal(3);
      expect(await stores.eventStore.readStream('counter-u')).to.have.length(1);
      // keys used from now on are compared as before
      const fresh = { ...ctx, idempotencyKey: 'key-new' };
      await handler.handle('counter-u', counter, { type: 'Increment', by: 1 }, fresh);
      const other = handler.handle('counter-u', counter, { type: 'Increment', by: 2 }, fresh);
      expect(await other.catch((error: unknown) => error)).to.be.instanceOf(Conflict);
    });

    it('keeps keys apart per actor: the same key from someone else is their own request', async () => {
      // a key belongs to whoever sent it (Stripe scopes keys to the account); two members of a
      // workspace must not collide on "retry-1" on the same item
      const ann = { ...ctx, actor: 'user-ann', idempotencyKey: 'retry-1' };
      const bob = { ...ctx, actor: 'user-bob', idempotencyKey: 'retry-1' };
      await createCommandHandler(stores.eventStore).handle(
        'counter-k',
        counter,
        { type: 'Increment', by: 3 },
        ann,
      );
      // a fresh handler reads the keys back from the stream, as after a restart
      const handler = createCommandHandler(stores.eventStore);
      const other = await handler.handle('counter-k', counter, { type: 'Increment', by: 4 }, bob);
      expect(other.replayed).to.equal(false);
      const again = await handler.handle('counter-k', counter, { type: 'Increment', by: 3 }, ann);
      expect(again.replayed).to.equal(true);
      expect(await stores.eventStore.readStream('counter-k')).to.have.length(2);
    });
  });

  // issue 17: "Within one process, commands on the same stream do not race each other: serialise
  // them per stream (a keyed queue in the command handler) so that optimistic concurrency only
  // meets writers in other processes."
  describe('When a burst of commands hits one stream in one process', () => {
    function counting(store: EventStore) {
      const appends: number[] = [];
      const wrapped: EventStore = {
        ...store,
        adapter: store.adapter,
        readStream: (s, o) => store.readStream(s, o),
        async appendToStream(streamId, events, options) {
          appends.push(events.length);
          return store.appendToStream(streamId, events, options);
        },
      };
      return { wrapped, appends };
    }

    it('lands every command once, in arrival order, without a single conflict', async () => {
      const { wrapped, appends } = counting(stores.eventStore);
      const commandHandler = createCommandHandler(wrapped);
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          commandHandler.handle('counter-i', counter, { type: 'Increment', by: i + 1 }, ctx),
        ),
      );
      const events = await stores.eventStore.readStream('counter-i');
      expect(events.map((e) => (e.data as { by: number }).by)).to.deep.equal(
        Array.from({ length: 200 }, (_, i) => i + 1),
      );
      // each caller sees the state right after its own command
      expect(results.map((r) => r.revision)).to.deep.equal(events.map((e) => e.revision));
      expect(results[199]!.state.total).to.equal((200 * 201) / 2);
      // decided together: far fewer appends than commands
      expect(appends.reduce((a, b) => a + b, 0)).to.equal(200);
      expect(appends.length).to.be.lessThan(10);
    });

    it('refuses only the command that breaks a rule; the others of its batch land', async () => {
      const commandHandler = createCommandHandler(stores.eventStore);
      const settled = await Promise.allSettled([
        commandHandler.handle('counter-j', counter, { type: 'Increment', by: 1 }, ctx),
        commandHandler.handle('counter-j', counter, { type: 'Increment', by: 2 }, ctx),
        commandHandler.handle('counter-j', counter, { type: 'Increment', by: 2_000_000 }, ctx),
        commandHandler.handle('counter-j', counter, { type: 'Increment', by: 3 }, ctx),
      ]);
      expect(settled.map((s) => s.status)).to.deep.equal([
        'fulfilled',
        'fulfilled',
        'rejected',
        'fulfilled',
      ]);
      expect((settled[2] as PromiseRejectedResult).reason).to.be.instanceOf(FailedPrecondition);
      const events = await stores.eventStore.readStream('counter-j');
      expect(events.map((e) => (e.data as { by: number }).by)).to.deep.equal([1, 2, 3]);
    });

    it('answers a repeated Idempotency-Key within one batch from the first command', async () => {
      const keyed = { ...ctx, idempotencyKey: 'key-burst' };
      const commandHandler = createCommandHandler(stores.eventStore);
      const [first, second, clash] = await Promise.allSettled([
        commandHandler.handle('counter-k', counter, { type: 'Increment', by: 7 }, keyed),
        commandHandler.handle('counter-k', counter, { type: 'Increment', by: 7 }, keyed),
        commandHandler.handle('counter-k', counter, { type: 'Increment', by: 8 }, keyed),
      ]);
      const a = (first as PromiseFulfilledResult<{ events: { id: string }[]; replayed: boolean }>)
        .value;
      const b = (second as PromiseFulfilledResult<{ events: { id: string }[]; replayed: boolean }>)
        .value;
      expect(b.replayed).to.equal(true);
      expect(b.events.map((e) => e.id)).to.deep.equal(a.events.map((e) => e.id));
      expect((clash as PromiseRejectedResult).reason).to.be.instanceOf(Conflict);
      expect(await stores.eventStore.readStream('counter-k')).to.have.length(1);
    });
  });
});
