/**
 * What a process whose read store holds documents it cannot read tells the operator (failure
 * audit F5). Read models are projections of the event log (DESIGN.md), so when every such
 * document belongs to one and the log verifies clean, the way out is `rebuild` of those read
 * models (the search indexes among them, which it embeds again): it drops them without reading
 * them and replays the log, which it leaves as it is. Otherwise — a document of something no
 * projection makes (sign-ins, rate limits, webhook deliveries), or a log whose hash chain breaks
 * too — it is a backup.
 */
import { allProjectors } from '../../projections/all.js';
import { searchProjections } from '../../projections/search-indexes.js';
import { isEmbeddedEventStore } from '../eventstore/embedded/index.js';
import { verifyChain } from '../eventstore/embedded/verify.js';
import type { EventStore } from '../eventstore/types.js';
import type { UnreadableDocumentsError } from '../readstore/embedded/errors.js';
import { ReadStoreUnavailableError } from '../readstore/types.js';

/** The command that rebuilds these projectors' read models, as the operator types it. */
const rebuildLine = (names: readonly string[]) =>
  `npm run cli -- rebuild --projector ${names.join(',')}`;

/** `rebuilding`: the collections a `rebuild` that met them drops; its command names them too. */
export async function adviceOnUnreadable(
  error: UnreadableDocumentsError,
  eventStore: EventStore,
  rebuilding: readonly string[] = [],
): Promise<ReadStoreUnavailableError> {
  const projectors = [...allProjectors(), ...searchProjections()];
  const ownerOf = (collection: string) =>
    projectors.find((p) => p.collections.includes(collection))?.name;
  const orphans = error.collections.filter((collection) => !ownerOf(collection));
  const sameFile = isEmbeddedEventStore(eventStore);
  const restore = (why: string) =>
    advised(
      error,
      `${why}: restore the file from a backup${sameFile ? '; do not move it away: it also holds the event log' : ''}`,
    );
  if (orphans.length > 0) {
    return restore(`${orphans.join(', ')} holds no read model the event log rebuilds`);
  }
  const dropped = new Set([...error.collections, ...rebuilding]);
  const names = projectors
    .filter((p) => p.collections.some((c) => dropped.has(c)))
    .map((p) => p.name);
  const rebuild = `rebuild those read models from it with \`${rebuildLine(names)}\` (it drops them without reading them and leaves the log as it is)`;
  if (!sameFile) return advised(error, `they are projections of the event log: ${rebuild}`);
  let verdict: Awaited<ReturnType<typeof verifyChain>>;
  try {
    verdict = await verifyChain(eventStore);
  } catch (cause) {
    return restore(`the event log in it cannot be verified either (${(cause as Error).message})`);
  }
  if (!verdict.intact) {
    return restore(
      `the event log in it does not verify either (chain broken at position ${verdict.brokenAt})`,
    );
  }
  return advised(
    error,
    `the event log in it verifies clean (${verdict.events} events, chain intact): ${rebuild}`,
  );
}

function advised(error: UnreadableDocumentsError, advice: string): ReadStoreUnavailableError {
  return new ReadStoreUnavailableError(
    `${error.message}; refusing to open the read store without them — ${advice}`,
    { cause: error },
  );
}
