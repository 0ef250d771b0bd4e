/**
 * The application's event store is the embedded one behind the upcasting decorator
 * (src/eventstore/versioned.ts). It must still keep the whole port contract, and every way of
 * reading — a stream, `$all`, a subscription — must hand out old shapes upcast while the log
 * keeps them as written (issue 15: "an upcaster per changed shape turns an old event into the
 * current one when read, never rewriting the log").
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { domainEventVersions } from '../../commands/upcasters.js';
import { openEmbeddedEventStore } from '../../src/eventstore/embedded/index.js';
import type { RecordedEvent } from '../../src/eventstore/types.js';
import { versionedEventStore } from '../../src/eventstore/versioned.js';
import { eventStoreContract } from './contract.js';

async function openTemporary() {
  const dir = mkdtempSync(join(tmpdir(), 'es-versioned-'));
  const raw = await openEmbeddedEventStore({ path: join(dir, 'events.db') });
  return {
    raw,
    store: versionedEventStore(raw, domainEventVersions()),
    async cleanup() {
      await raw.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

eventStoreContract('embedded behind the upcasting decorator', openTemporary);

describe('When a version 1 PlusOneAdded is in the log', () => {
  it('every read hands it out as version 2, and the log keeps version 1', async () => {
    const { raw, store, cleanup } = await openTemporary();
    try {
      const streamId = 'item-w1.APP-3';
      const metadata = { actor: null, occurredAt: 1, correlationId: 'c', causationId: null };
      await raw.appendToStream(streamId, [
        { type: 'PlusOneAdded', data: { personId: 'p1' }, metadata },
      ]);
      const current = { personId: 'p1', addressedTo: 'APP-3' };
      expect((await store.readStream(streamId))[0]!.data).to.deep.equal(current);
      expect((await store.readAll())[0]!.data).to.deep.equal(current);
      const subscription = store.subscribeToAll();
      let first: RecordedEvent | undefined;
      for await (const event of subscription) {
        first = event;
        break;
      }
      await subscription.close();
      expect(first!.data).to.deep.equal(current);
      expect(first!.metadata.schemaVersion).to.equal(2);
      expect((await raw.readStream(streamId))[0]!.data).to.deep.equal({ personId: 'p1' });

      await store.appendToStream(streamId, [
        { type: 'PlusOneAdded', data: { personId: 'p2', addressedTo: 'APP-3' }, metadata },
      ]);
      expect((await raw.readStream(streamId))[1]!.metadata.schemaVersion).to.equal(2);
    } finally {
      await cleanup();
    }
  });
});
