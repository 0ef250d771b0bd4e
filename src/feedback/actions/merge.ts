/**
 * merge_items as a sequence that converges: (1) check everything, so a bad key appends nothing;
 * (2) mark each merged item "merged into" the survivor — each append carries the revision it
 * read, and a marked item refuses further changes, so what it hands over cannot drift; (3) the
 * survivor records the merges, taking the people from the marked items' final states.
 * Another request may change the picture between the check and the writes (merge A into B
 * while B goes into A or into C): a duplicate merged elsewhere meanwhile stops the marking — the
 * ones already marked are recorded and the refusal names them; a survivor merged away meanwhile
 * can never record, so the items this request marked take themselves back and nothing is merged.
 *
 * Every step is a no-op when already done (an item already merged into this survivor; a merge
 * the survivor already recorded), so retrying the same request after a crash at any point
 * completes it and counts nobody twice. `completePendingMerges` does the same for merges whose
 * client never came back: items marked merged whose survivor has not recorded them yet.
 *
 * An item its survivor gave back in an unmerge that did not finish (unmerge.ts) still reads as
 * merged into it; merging it again first completes that unmerge — under the unmerging request's
 * actor, `via` and correlation id (continued.ts), not this caller's — so the +1s it gets back are
 * not lost, then merges it as usual.
 */
import {
  type ItemState,
  itemDecider,
  itemStreamId,
  type MergeSnapshot,
  mergedPeopleCount,
  mergeSnapshot,
  unmergePending,
} from '../../../commands/item/index.js';
import { productKeyOf } from '../../../commands/product/index.js';
import { FailedPrecondition, InvalidArgument, NotFound } from '../../../commands/shared/errors.js';
import { itemsOf } from '../../../projections/items/document.js';
import {
  assertItemOfProduct,
  type CommandContext,
  type CommandDeps,
  type FeedbackDeps,
  latest,
} from './deps.js';
import { asOneRequest, continuing, type RecoveryDeps, requestOf } from './continued.js';
import { followMerges, mergedMessage } from './merge-chain.js';
import { givesBack, takeBack } from './unmerge.js';

export async function mergeItems(
  deps: CommandDeps & RecoveryDeps,
  request: CommandContext,
  input: { workspaceId: string; productKey: string; survivorKey: string; mergedKeys: string[] },
): Promise<{ survivorId: string; mergedPeople: number; position: bigint | null }> {
  const context = asOneRequest(request);
  const { workspaceId, survivorKey } = input;
  assertItemOfProduct(input.productKey, survivorKey);
  const mergedKeys = [...new Set(input.mergedKeys)];
  if (mergedKeys.includes(survivorKey))
    throw new InvalidArgument('an item cannot be merged into itself');
  const load = (key: string) =>
    deps.commandHandler.load(itemStreamId(workspaceId, key), itemDecider);

  // Only duplicates of the same product: the route is the product's, where another product's
  // item does not exist (GET answers 404), and a private product's people and +1s would
  // otherwise land on a public board.
  for (const key of mergedKeys) {
    if (productKeyOf(key) !== input.productKey)
      throw new NotFound(`item ${key} not found in ${input.productKey}`);
  }
  const survivor = (await load(survivorKey)).state;
  await assertMergeable(deps, workspaceId, survivor, survivorKey, null);
  for (const key of mergedKeys) {
    await assertMergeable(deps, workspaceId, (await load(key)).state, key, survivorKey);
  }

  const positions: (bigint | null)[] = [];
  for (const key of mergedKeys) {
    if (survivor.status !== 'absent' && unmergePending(survivor, key)) {
      // the rest of someone's unmerge, recorded as theirs: this caller only merges
      const unmerging = await continuing(
        deps,
        context,
        itemStreamId(workspaceId, survivorKey),
        (e) => givesBack(e, key),
      );
      positions.push(await takeBack(deps, unmerging, workspaceId, survivor, key));
    }
  }
  const snapshots: MergeSnapshot[] = [];
  const marked: string[] = [];
  let refused: unknown = null;
  for (const key of mergedKeys) {
    try {
      const result = await deps.commandHandler.handle(
        itemStreamId(workspaceId, key),
        itemDecider,
        { type: 'MarkMergedInto', data: { survivorKey } },
        context,
      );
      if (result.events.length > 0) marked.push(key);
      positions.push(result.position);
      snapshots.push(mergeSnapshot(result.state));
    } catch (error) {
      // merged elsewhere since the check: the ones marked so far are still recorded below, so
      // nothing stays half-merged, and the refusal is answered
      if (!(error instanceof FailedPrecondition)) throw error;
      const { chain } = await followMerges(deps, workspaceId, key);
      const already = chain.length > 1 ? mergedMessage(chain, true) : error.message;
      const done = snapshots.map((s) => s.itemKey);
      refused = new FailedPrecondition(
        done.length ? `${already}; ${done.join(', ')} merged into ${survivorKey}` : already,
      );
      break;
    }
  }
  const recorded = await recordOrGiveBack(
    deps,
    context,
    workspaceId,
    survivorKey,
    snapshots,
    marked,
  );
  if (refused) throw refused;
  positions.push(recorded.position);
  return {
    survivorId: survivorKey,
    mergedPeople:
      recorded.state.status === 'absent' ? 0 : mergedPeopleCount(recorded.state, mergedKeys),
    position: latest(...positions),
  };
}

/**
 * Step 3, or — when the survivor was merged away after the check (merging A into B while B
 * goes into A or C) — its undoing: the items this request marked take themselves back
 * (ItemUnmerged, as after an unmerge) and the request is refused, so no item is left marked
 * "merged into" an item that can never record it. Only marks this request appended are given
 * back: a mark found in place belongs to an earlier request, which settles it itself.
 */
async function recordOrGiveBack(
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
async function giveBack(
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

async function assertMergeable(
  deps: CommandDeps,
  workspaceId: string,
  state: ItemState,
  key: string,
  survivorKey: string | null,
): Promise<void> {
  if (state.status === 'absent') throw new NotFound(`item ${key} not found`);
  if (state.status === 'merged' && state.survivorKey !== survivorKey) {
    // "no item can be merged twice": a survivor that was merged away, or a key merged elsewhere;
    // the refusal names where it lives on now, the end of its merges
    const { chain } = await followMerges(deps, workspaceId, key);
    throw new FailedPrecondition(mergedMessage(chain, true));
  }
}

function recordMerges(
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
