/**
 * Opens the two stores the configuration names: KurrentDB / MongoDB when their URLs are set,
 * otherwise the embedded SQLite file in DATA_DIR. A store that cannot be opened stops the
 * process with a clear message; nothing ever starts empty over unreadable data.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from '../config/schema.js';
import type { EventStore } from '../eventstore/types.js';
import type { ReadStore } from '../readstore/types.js';

export interface Stores {
  eventStore: EventStore;
  readStore: ReadStore;
  describe(): { eventStore: string; readStore: string };
  close(): Promise<void>;
}

export function embeddedFile(config: Config): string {
  return join(resolve(config.DATA_DIR), 'store.sqlite');
}

export async function openStores(config: Config): Promise<Stores> {
  const needsFile = !config.EVENTSTORE_URL || !config.MONGODB_URL;
  if (needsFile) mkdirSync(resolve(config.DATA_DIR), { recursive: true });
  const file = embeddedFile(config);

  const eventStore = config.EVENTSTORE_URL
    ? await (await import('../eventstore/kurrentdb/index.js')).openKurrentEventStore({
        connectionString: config.EVENTSTORE_URL,
      })
    : await (await import('../eventstore/embedded/index.js')).openEmbeddedEventStore({
        path: file,
      });
  let readStore: ReadStore;
  try {
    readStore = config.MONGODB_URL
      ? await (await import('../readstore/mongodb/index.js')).openMongoReadStore({
          url: config.MONGODB_URL,
          database: config.MONGODB_DATABASE,
        })
      : await (await import('../readstore/embedded/index.js')).openEmbeddedReadStore({
          path: file,
        });
  } catch (error) {
    await eventStore.close();
    throw error;
  }
  return {
    eventStore,
    readStore,
    describe: () => ({
      eventStore: config.EVENTSTORE_URL ? 'kurrentdb' : `embedded (${file})`,
      readStore: config.MONGODB_URL ? `mongodb (${config.MONGODB_DATABASE})` : `embedded (${file})`,
    }),
    async close() {
      await readStore.close();
      await eventStore.close();
    },
  };
}
