/**
 * unmerge_items: undo merges exactly, in two steps that converge like the merge's own (see
 * merge.ts and DESIGN.md "Operations that touch several aggregates"):
 *   (1) the survivor records the unmerge (ItemsUnmerged): it drops what came only through the
 *       unmerged items and says which +1s given on their keys go back with them;
 *   (2) each unmerged item takes itself back (ItemUnmerged): it is listed, counted and takes
 *       triage commands again, with those +1s.
 * Both steps are no-ops when done, so repeating the request after a crash at any point completes
 * it and changes nothing more; `completePendingUnmerges` does the same at start-up for requests
 * whose client never came back (the items read model marks such items `_unmergePending`).
 */
import {
  type ItemFacts,
  type ItemState,
  type ItemsUnmerged,
  itemDecider,
  itemStreamId,
  restoredPeopleCount,
  unmergePending,
} from '../../../commands/item/index.js';
import { FailedPrecondition, InvalidArgument, NotFound } from '../../../commands/shared/errors.js';
import { itemsOf } from '../../../projections/items/document.js';
import type { RecordedEvent } from '../../eventstore/types.js';
import { continuing, type RecoveryDeps } from './continued.js';
import { keysInside } from './merge-chain.js';
import {
  assertItemOfProduct,
  type CommandContext,
  type CommandDeps,
  type FeedbackDeps,
  latest,
} from './deps.js';

export interface UnmergeResult {
  survivorId: string;
  restoredKeys: string[];
  restoredPeople: number;
  position: bigint | null;
}

export async function unmergeItems(
  deps: CommandDeps,
  context: CommandContext,
  input: { workspaceId: string; productKey: string; survivorKey: string; mergedKeys: string[] },
): Promise<UnmergeResult> {
  const { workspaceId, survivorKey } = input;
  assertItemOfProduct(input.productKey, survivorKey);
  const keys = [...new Set(input.mergedKeys)];
  if (keys.includes(survivorKey)) {
    throw new InvalidArgument(
      'an item is never merged into itself, so it cannot be unmerged from itself',
    );
  }
  const { state } = await deps.commandHandler.load(
    itemStreamId(workspaceId, survivorKey),
    itemDecider,
  );
  assertSurvivor(state, survivorKey);
  // the items living inside each one given back: the +1s given on their keys go back with it
  // (A merged into B, B into C: a +1 on A landed on C). They cannot change meanwhile: B is
  // merged, so nothing is merged into it nor unmerged from it until it is given back.
  const inside: Record<string, string[]> = {};
  for (const key of keys) {
    const within = state.merges[key] === undefined ? [] : await keysInside(deps, workspaceId, key);
    if (within.length) inside[key] = within;
  }
  const recorded = await deps.commandHandler.handle(
    itemStreamId(workspaceId, survivorKey),
    itemDecider,
    {
      type: 'RecordUnmerge',
      data: { itemKeys: keys, ...(Object.keys(inside).length ? { inside } : {}) },
    },
    context,
  );
  const survivor = recorded.state as ItemFacts;
  const positions = [recorded.position];
  for (const key of keys) {
    positions.push(await takeBack(deps, context, workspaceId, survivor, key));
  }
  return {
    survivorId: survivorKey,
    restoredKeys: keys,
    restoredPeople: restoredPeopleCount(survivor, keys),
    position: latest(...positions),
  };
}

function assertSurvivor(state: ItemState, key: string): asserts state is ItemState & ItemFacts {
  if (state.status === 'absent') throw new NotFound('item not found');
  if (state.status === 'merged') {
    throw new FailedPrecondition(
      `${key} was itself merged into ${state.survivorKey}; unmerge it from there first`,
    );
  }
}

/** Step 2 for one item the survivor gave back (a no-op once it took itself back). */
export async function takeBack(
  deps: CommandDeps,
  context: CommandContext,
  workspaceId: string,
  survivor: ItemFacts,
  itemKey: string,
): Promise<bigint | null> {
  if (!unmergePending(survivor, itemKey)) return null;
  const result = await deps.commandHandler.handle(
    itemStreamId(workspaceId, itemKey),
    itemDecider,
    {
      type: 'MarkUnmerged',
      data: {
        survivorKey: survivor.itemKey,
        plusOnes: survivor.unmerges[itemKey]!.returnedPlusOnes,
        insidePlusOnes: survivor.unmerges[itemKey]!.insidePlusOnes ?? [],
      },
    },
    context,
  );
  return result.position;
}

/**
 * Finish unmerges a crash left half-done (run at start-up, after the items read model caught
 * up): items their survivor gave back that have not taken themselves back yet — under the
 * unmerging request's actor, `via` and correlation id (continued.ts).
 */
export async function completePendingUnmerges(
  deps: FeedbackDeps & RecoveryDeps,
  context: CommandContext,
): Promise<{ completed: number; position: bigint | null }> {
  const pending = await itemsOf(deps.readStore).find({
    _unmergePending: true,
    _mergedInto: { $ne: null },
  });
  let completed = 0;
  const positions: (bigint | null)[] = [];
  for (const doc of pending) {
    const survivorStream = itemStreamId(doc._ws, doc._mergedInto!);
    const { state } = await deps.commandHandler.load(survivorStream, itemDecider);
    if (state.status === 'absent') continue;
    const request = await continuing(deps, context, survivorStream, (e) => givesBack(e, doc.id));
    const position = await takeBack(deps, request, doc._ws, state, doc.id);
    if (position !== null) completed++;
    positions.push(position);
  }
  return { completed, position: latest(...positions) };
}

/** The survivor's record of an unmerge that gave `itemKey` back. */
export function givesBack(event: RecordedEvent, itemKey: string): boolean {
  if (event.type !== 'ItemsUnmerged') return false;
  return (event.data as ItemsUnmerged['data']).unmerged.some((u) => u.itemKey === itemKey);
}
