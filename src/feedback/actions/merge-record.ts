/**
 * Step 3 of merge_items (merge.ts): the survivor records the merges — or, when it can never
 * record them, the items marked "merged into" it take themselves back, so no item is left
 * merged into an item that does not know it. Shared by a request (merge.ts) and the start-up
 * completion of requests a crash interrupted (merge-recovery.ts).
 */
import { itemDecider, itemStreamId, type MergeSnapshot } from '../../../commands/item/index.js';
import { FailedPrecondition } from '../../../commands/shared/errors.js';
import type { CommandContext, CommandDeps } from './deps.js';
import { followMerges } from './merge-chain.js';

/**
 * Step 3, or — when the survivor was merged away after the check (merging A into B while B
 * goes into A or C) — its undoing: the items this request marked take themselves back
 * (ItemUnmerged, as after an unmerge) and the request is refused, so no item is left marked
 * "merged into" an item that can never record it. Only marks this request appended are given
 * back: a mark found in place belongs to an earlier request, which settles it itself.
 */
export async function recordOrGiveBack(
  deps: CommandDeps,
  context: CommandContext,
  workspaceId: string,
  survivorKey: string,
  snapshots: MergeSnapshot[],
  marked: readonly string[],
) {
  try {
    return await recordMerges(deps, context, workspaceId, survivorKey, snapshots);
  } catch (error) {
    if (!(error instanceof FailedPrecondition)) throw error;
    const where = await giveBack(deps, context, workspaceId, survivorKey, marked);
    throw new FailedPrecondition(
      `${survivorKey} was merged into ${where} meanwhile; nothing was merged`,
    );
  }
}

/** The marked items that the survivor has not recorded take themselves back; says where it went. */
export async function giveBack(
  deps: CommandDeps,
  context: CommandContext,
  workspaceId: string,
  survivorKey: string,
  keys: readonly string[],
): Promise<string> {
  const { state } = await deps.commandHandler.load(
    itemStreamId(workspaceId, survivorKey),
    itemDecider,
  );
  for (const key of keys) {
    if (state.status !== 'absent' && state.merges[key] !== undefined) continue;
    await deps.commandHandler.handle(
      itemStreamId(workspaceId, key),
      itemDecider,
      { type: 'MarkUnmerged', data: { survivorKey, plusOnes: [] } },
      context,
    );
  }
  if (state.status !== 'merged') return 'another item';
  return (await followMerges(deps, workspaceId, survivorKey)).chain.at(-1)!;
}

export function recordMerges(
  deps: CommandDeps,
  context: CommandContext,
  workspaceId: string,
  survivorKey: string,
  merged: MergeSnapshot[],
) {
  return deps.commandHandler.handle(
    itemStreamId(workspaceId, survivorKey),
    itemDecider,
    { type: 'RecordMerge', data: { merged } },
    context,
  );
}
