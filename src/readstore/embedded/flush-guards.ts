/**
 * Which projections' parts of a flush the file refuses. Several processes may flush into one
 * file (SHARED_DATA_DIR), each from its own memory, and a `rebuild` may drop a read model under a
 * process paused past its lease. A projection's part — its collections' drops, documents and
 * indexes, and its checkpoint — is written only when, inside the flush's transaction:
 *
 * - the stored checkpoint is not ahead of this process's (`behind` otherwise): a process behind
 *   would write older copies of documents the stored checkpoint already covers, and since a
 *   checkpoint only moves forward no replay would ever bring the newer ones back;
 * - each of its collections is of the generation this process loaded or made (`rebuilt`
 *   otherwise): a drop (`rebuild`, another version's start) counts the collection's generation
 *   up, and a process that loaded the read model before it holds copies of what was dropped — its
 *   documents would come back into the rebuilt model, its checkpoint would hold the replay's
 *   below it.
 *
 * What a process drops itself, after deleting the checkpoint (a rebuild), starts from none.
 */

export interface ProjectionGuard {
  projector: string;
  /** this process's checkpoint for it; none: any stored one is ahead */
  position: bigint | undefined;
  collections: readonly string[];
}

/** A projection whose part of a flush was left out, and why. */
export type LeftOut =
  | { projector: string; reason: 'behind'; position: bigint | undefined; stored: bigint }
  | { projector: string; reason: 'rebuilt'; collection: string };

export interface StoredState {
  /** the stored checkpoint's position, as text */
  checkpoint(projector: string): string | undefined;
  /** the stored generation of a collection (0: never dropped) */
  generation(collection: string): number;
}

/**
 * The guarded projections the file refuses. `known`: the generations this process loaded or
 * made; `dropping`: collections this flush drops (their generation starts again from the drop).
 */
export function leftOut(
  guards: readonly ProjectionGuard[],
  stored: StoredState,
  known: ReadonlyMap<string, number>,
  dropping: ReadonlySet<string>,
): LeftOut[] {
  const left: LeftOut[] = [];
  for (const { projector, position, collections } of guards) {
    const stale = collections.find(
      (c) => !dropping.has(c) && stored.generation(c) !== (known.get(c) ?? 0),
    );
    if (stale !== undefined) {
      left.push({ projector, reason: 'rebuilt', collection: stale });
      continue;
    }
    const at = stored.checkpoint(projector);
    if (at === undefined) continue;
    if (position === undefined || position < BigInt(at))
      left.push({ projector, reason: 'behind', position, stored: BigInt(at) });
  }
  return left;
}

/** One warning line for a projection left out (the store says it once a projector). */
export function leftOutMessage(left: LeftOut): {
  message: string;
  fields: Record<string, unknown>;
} {
  if (left.reason === 'rebuilt') {
    return {
      message:
        `projector ${left.projector}: its read model was dropped and rebuilt by another process ` +
        `(${left.collection}: \`rebuild\`, or another version's start) since this process loaded ` +
        'it; this process no longer writes it and answers from its older copy — restart it ' +
        '(said once)',
      fields: { projector: left.projector, collection: left.collection },
    };
  }
  const { projector, position, stored } = left;
  return {
    message:
      `projector ${projector}: the data file holds its read model at position ${stored}, ahead ` +
      `of this process's ${position ?? 'none'} (another server on this data directory is ` +
      'further on); this process leaves those documents as they are until it has caught up ' +
      '(said once)',
    fields: {
      projector,
      position: position === undefined ? null : Number(position),
      stored: Number(stored),
    },
  };
}
