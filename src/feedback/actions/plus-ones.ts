/**
 * +1s from the public side: one per person per item, a toggle (issue 12: "One +1 per person per
 * item (toggle); it counts in plusOneCount and makes the visitor a participant").
 *
 * A merged item lives on in its survivor and refuses changes of its own, so a +1 given or
 * withdrawn on it is recorded on the survivor (following the chain) as addressed to the merged
 * item (`addressedTo`). That is what lets an unmerge give back exactly the +1s still standing.
 */
import {
  countsPlusOne,
  type ItemState,
  itemDecider,
  itemStreamId,
} from '../../../commands/item/index.js';
import { FailedPrecondition } from '../../../commands/shared/errors.js';
import type { CommandContext, CommandDeps } from './deps.js';
import { followMerges, mergedMessage } from './merge-chain.js';

export interface PlusOneInput {
  workspaceId: string;
  itemKey: string;
  personId: string;
}

export interface PlusOneResult {
  /** the item that recorded it: the item itself, or the survivor of a merged one */
  itemKey: string;
  changed: boolean;
  position: bigint | null;
}

/**
 * A person's +1. On a merged item it lands on the survivor (following the chain), because the
 * merged item lives on there and refuses changes of its own; it is recorded there as given on
 * the merged item (`addressedTo`), so an unmerge gives it back. A +1 the merged item already
 * counts (its submitter, its own +1s) adds nothing.
 */
export function addPlusOne(
  deps: CommandDeps,
  context: CommandContext,
  input: PlusOneInput,
): Promise<PlusOneResult> {
  return onSurvivor(deps, context, input, 'AddPlusOne', (state) => {
    // a +1 the merged item already counts (its submitter, its own +1s) adds nothing
    const counted =
      state.submitterId === input.personId || countsPlusOne(state.roster, input.personId);
    return counted ? 'nothing' : 'go on';
  });
}

/**
 * Withdraws the person's +1 (the other half of the toggle). On a merged item it is withdrawn
 * from the survivor, where the +1 given on the merged item landed. A +1 the merged item counts
 * on its own stream (given before the merge) cannot change while it is merged: the merged item
 * is read-only and gets it back as it was on an unmerge. Withdrawing what was never given, or
 * the submitter's own request, changes nothing.
 */
export function withdrawPlusOne(
  deps: CommandDeps,
  context: CommandContext,
  input: PlusOneInput,
): Promise<PlusOneResult> {
  return onSurvivor(deps, context, input, 'WithdrawPlusOne', (state, chain) => {
    if (state.submitterId === input.personId) return 'nothing';
    if (countsPlusOne(state.roster, input.personId)) {
      throw new FailedPrecondition(
        `${mergedMessage(chain)}; a +1 given on it before the merge stays until it is unmerged`,
      );
    }
    return 'go on';
  });
}

type MergedState = Extract<ItemState, { status: 'merged' }>;

/**
 * Runs the +1 command on the item, or — when it was merged — on its final survivor (following the
 * chain: merge-chain.ts), addressed to the item the person pressed. `onMerged` looks at the
 * pressed item when it is merged: 'nothing' answers without a command. An item merged away
 * between the look and the command (a merge racing the +1) refuses it; then the chain is
 * followed again.
 */
async function onSurvivor(
  deps: CommandDeps,
  context: CommandContext,
  input: PlusOneInput,
  type: 'AddPlusOne' | 'WithdrawPlusOne',
  onMerged: (state: MergedState, chain: string[]) => 'nothing' | 'go on',
): Promise<PlusOneResult> {
  for (let attempt = 1; ; attempt++) {
    const { chain, states } = await followMerges(deps, input.workspaceId, input.itemKey);
    const pressed = states[0]!;
    const itemKey = chain.at(-1)!;
    if (pressed.status === 'merged' && onMerged(pressed, chain) === 'nothing') {
      return { itemKey, changed: false, position: null };
    }
    try {
      const result = await deps.commandHandler.handle(
        itemStreamId(input.workspaceId, itemKey),
        itemDecider,
        { type, data: { personId: input.personId, addressedTo: input.itemKey } },
        context,
      );
      return { itemKey, changed: result.events.length > 0, position: result.position };
    } catch (error) {
      const mergedMeanwhile =
        error instanceof FailedPrecondition &&
        (await followMerges(deps, input.workspaceId, itemKey)).chain.length > 1;
      if (!mergedMeanwhile || attempt === 3) throw error;
    }
  }
}
