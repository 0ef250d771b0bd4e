/**
 * merge_items' requests a crash interrupted, completed at start-up (src/feedback/service.ts),
 * each as the request that started it (continued.ts): see merge.ts for the steps.
 */
import {
  itemDecider,
  itemStreamId,
  type MergeSnapshot,
  mergeSnapshot,
} from '../../../commands/item/index.js';
import { FailedPrecondition } from '../../../commands/shared/errors.js';
import { itemsOf } from '../../../projections/items/document.js';
import { type CommandContext, type FeedbackDeps, latest } from './deps.js';
import { continuing, type RecoveryDeps, requestOf } from './continued.js';
import { giveBack, recordMerges } from './merge-record.js';

/**
 * Finish merges a crash left half-done (run at start-up, after the items projection caught up):
 * every item marked merged whose survivor has not recorded it yet is recorded now — under the
 * marking request's actor, `via` and correlation id (continued.ts), one record per request.
 */
export async function completePendingMerges(
  deps: FeedbackDeps & RecoveryDeps,
  context: CommandContext,
): Promise<{ completed: number; position: bigint | null }> {
  const pending = await itemsOf(deps.readStore).find({
    _mergedInto: { $ne: null },
    _mergeRecorded: false,
  });
  const byRequest = new Map<
    string,
    { workspaceId: string; survivorKey: string; keys: string[]; context: CommandContext }
  >();
  for (const doc of pending) {
    const marked = await continuing(
      deps,
      context,
      itemStreamId(doc._ws, doc.id),
      (e) => e.type === 'ItemMergedInto',
    );
    const id = `${doc._ws}.${doc._mergedInto}\0${requestOf(marked)}`;
    const group = byRequest.get(id) ?? {
      workspaceId: doc._ws,
      survivorKey: doc._mergedInto!,
      keys: [],
      context: marked,
    };
    group.keys.push(doc.id);
    byRequest.set(id, group);
  }
  let completed = 0;
  const positions: (bigint | null)[] = [];
  for (const { workspaceId, survivorKey, keys, context: request } of byRequest.values()) {
    const snapshots: MergeSnapshot[] = [];
    for (const key of keys) {
      const { state } = await deps.commandHandler.load(itemStreamId(workspaceId, key), itemDecider);
      if (state.status === 'merged' && state.survivorKey === survivorKey)
        snapshots.push(mergeSnapshot(state));
    }
    if (snapshots.length === 0) continue;
    try {
      const result = await recordMerges(deps, request, workspaceId, survivorKey, snapshots);
      completed += result.events.length > 0 ? snapshots.length : 0;
      positions.push(result.position);
    } catch (error) {
      // the survivor was merged away meanwhile: nothing can record these, so they take
      // themselves back, as the interrupted request would have done
      if (!(error instanceof FailedPrecondition)) throw error;
      await giveBack(
        deps,
        request,
        workspaceId,
        survivorKey,
        snapshots.map((s) => s.itemKey),
      );
    }
  }
  return { completed, position: latest(...positions) };
}
