/**
 * The search indexes in `rebuild` (feedback-search, notes-search): projections of the log like
 * the other read models, whose projectors each service's search builds over an embedder. Here
 * they get an embedder of the CLI's own — MODEL_DIR's model, else the bundled encoder, the
 * provider a server of the same configuration serves with, so it does not embed them again. The
 * replay stages every text; the texts are then embedded here until none is pending, so the index
 * is whole when `rebuild` says it is rebuilt. No model loads unless a search index is rebuilt.
 */
import { allProjectors } from '../../../projections/all.js';
import { FEEDBACK_SEARCH, searchProjections } from '../../../projections/search-indexes.js';
import type { Projector } from '../../../projections/shared/projector.js';
import type { Config } from '../../config/schema.js';
import { createFeedbackSearch } from '../../feedback/search/index.js';
import { createNotesSearch } from '../../notes/search/notes-search.js';
import { silentLogger } from '../../platform/logger.js';
import type { ReadStore } from '../../readstore/types.js';
import { lazyEmbedder } from '../../search/create-embedder.js';
import { progressBar } from '../progress.js';

export interface RebuildableProjectors {
  /** every read model `rebuild` knows, in the order a server applies them */
  projectors: Projector[];
  /** after the replay: embeds what it staged in the chosen search indexes */
  embed(
    store: ReadStore,
    chosen: readonly Projector[],
    progress?: (line: string) => void,
  ): Promise<void>;
  /** ends the embedder (when one was loaded) */
  close(): Promise<void>;
}

const POLL_MS = 250;

export function rebuildableProjectors(config: Config): RebuildableProjectors {
  const embedder = lazyEmbedder({ modelDir: config.MODEL_DIR, logger: silentLogger });
  const feedback = createFeedbackSearch({ embedder, logger: silentLogger });
  const notes = createNotesSearch({ embedder, logger: silentLogger });
  // search reads the items, people and notes documents: its projectors come after theirs
  const projectors = [...allProjectors(), ...feedback.projectors(), notes.projector()];
  const searchNames = new Set(searchProjections().map((p) => p.name));

  return {
    projectors,
    async embed(store, chosen, progress) {
      const indexes = chosen.filter((p) => searchNames.has(p.name));
      if (indexes.length === 0) return;
      const collections = indexes.flatMap((p) => p.collections);
      const pending = async () => {
        let count = 0;
        for (const name of collections)
          count += await store.collection(name).countDocuments({ pending: true });
        return count;
      };
      // a model that cannot load is one error line, not an indexer retrying for ever
      await embedder.get();
      const total = BigInt(await pending());
      for (const index of indexes) {
        if (index.name === FEEDBACK_SEARCH.name) feedback.start(store);
        else notes.startIndexing();
      }
      const draw = async () => {
        const done = total - BigInt(await pending());
        progress?.(`embedding search texts ${progressBar(done, total)} (${done} of ${total})`);
      };
      const ticker = progress ? setInterval(() => void draw().catch(() => {}), POLL_MS) : undefined;
      try {
        await Promise.all([feedback.whenIdle(), notes.whenIdle()]);
        progress?.(`embedding search texts ${progressBar(total, total)} (${total} of ${total})\n`);
        // the vectors are written after the replay's last flush: kept only once flushed too
        await store.flush();
      } finally {
        clearInterval(ticker);
      }
    },
    async close() {
      await Promise.all([feedback.stop(), notes.stop()]);
      await embedder.close();
    },
  };
}
