/**
 * merge_items as a sequence that converges: (1) check everything, so a bad key appends nothing;
 * (2) mark each merged item "merged into" the survivor — each append carries the revision it
 * read, and a marked item refuses further changes, so what it hands over cannot drift; (3) the
 * survivor records the merges, taking the people from the marked items' final states
(merge-record.ts).
 * Another request may change the picture between the check and the writes (merge A into B
 * while B goes into A or into C): a duplicate merged elsewhere meanwhile stops the marking — the
 * ones already marked are recorded and the refusal names them; a survivor merged away meanwhile
 * can never record, so the items this request marked take themselves back and nothing is merged.
 *
 * Every step is a no-op when already done (an item already merged into this survivor; a merge
 * the survivor already recorded), so retrying the same request after a crash at any point
 * completes it and counts nobody twice. `completePendingMerges` (merge-recovery.ts) does the
 * same for merges whose client never came back: items marked merged whose survivor has not
 * recorded them yet.
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
import { assertItemOfProduct, type CommandContext, type CommandDeps, latest } from './deps.js';
import { asOneRequest, continuing, type RecoveryDeps } from './continued.js';
import { followMerges, mergedMessage } from './merge-chain.js';
import { recordOrGiveBack } from './merge-record.js';
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
