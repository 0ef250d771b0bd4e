/** Real embedded stores over a temporary SQLite file, for integration tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedEventStore } from '../../src/eventstore/embedded/index.js';
import type { EventStore } from '../../src/eventstore/types.js';
import { openEmbeddedReadStore } from '../../src/readstore/embedded/index.js';
import type { ReadStore } from '../../src/readstore/types.js';

export interface TestStores {
  dir: string;
  file: string;
  eventStore: EventStore;
  readStore: ReadStore;
  /** close both stores and open them again over the same file (a process restart) */
  reopen(): Promise<void>;
  cleanup(): Promise<void>;
}

export function tempDir(prefix = 'fb-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export async function openTestStores(): Promise<TestStores> {
  const dir = tempDir();
  const file = join(dir, 'store.sqlite');
  const stores: TestStores = {
    dir,
    file,
    eventStore: await openEmbeddedEventStore({ path: file }),
    readStore: await openEmbeddedReadStore({ path: file }),
    async reopen() {
      await stores.readStore.close();
      await stores.eventStore.close();
      stores.eventStore = await openEmbeddedEventStore({ path: file });
      stores.readStore = await openEmbeddedReadStore({ path: file });
    },
    async cleanup() {
      await stores.readStore.close().catch(() => {});
      await stores.eventStore.close().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return stores;
}
