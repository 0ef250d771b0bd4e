/**
 * The stores are opened through dynamic imports (src/platform/stores.ts: a process loads only
 * the adapters it is configured for), while the code that handles their errors imports the
 * error classes statically. Both must be one module instance: the command handler retries on
 * `instanceof WrongExpectedRevisionError`, and the error mapping answers 503 on
 * `instanceof EventStoreUnavailableError`. Under mocha, test files were once compiled as
 * CommonJS while the dynamic imports loaded ES modules — two copies of every class, and a
 * conflict from another process escaped the retry as an error. The test loader is now ESM only
 * (.mocharc.json `import=tsx/esm`), as in production.
 */
import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { loadConfig } from '../../src/config/load.js';
import {
  EventStoreUnavailableError,
  WrongExpectedRevisionError,
} from '../../src/eventstore/types.js';
import { openStores } from '../../src/platform/stores.js';
import { tempDir } from '../support/stores.js';

describe('Stores opened by configuration', () => {
  it('throw the error classes the rest of the code imports', async () => {
    const dir = tempDir('stores-');
    const stores = await openStores(loadConfig({ DATA_DIR: dir }));
    try {
      const event = {
        type: 'ThingHappened',
        data: {},
        metadata: { actor: 'a', occurredAt: 1, correlationId: 'c', causationId: null },
      };
      await stores.rawEventStore.appendToStream('thing-1', [event]);
      const conflict = await stores.rawEventStore
        .appendToStream('thing-1', [event], { expectedRevision: 'no_stream' })
        .catch((error: unknown) => error);
      expect(conflict).to.be.instanceOf(WrongExpectedRevisionError);
      await stores.rawEventStore.close();
      const closed = await stores.rawEventStore.readAll().catch((error: unknown) => error);
      expect(closed).to.be.instanceOf(EventStoreUnavailableError);
    } finally {
      await stores.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
