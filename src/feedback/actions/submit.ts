/**
 * submit_feedback: the public side that creates items (+1s: plus-ones.ts).
 *
 * Submitting touches three streams, in an order that converges after a crash at any point:
 *   1. product-<ws>.<KEY>  AllocateItemNumber for this submission id (a repeat gets the same
 *      number); it refuses a private product, so a refused submission writes nothing — also one
 *      racing the product's switch to private (nothing refused reaches the event log)
 *   2. person-<id>    RegisterPerson (upsert; repeating it appends nothing)
 *   3. item-<ws>.<KEY-n>   CaptureItem (the stream must not exist; a repeat with the same
 *      Idempotency-Key is answered from the first capture)
 * A submission given a `fold` (capture/file.ts: the same body from the same person within
 * FOLD_WINDOW_MS is one item) that the product folds gets the first one's number instead of its
 * own, and captures it only if that item is not there yet (its first submitter may still be on
 * its way, or have crashed before capturing): both converge on one item, whichever captures.
 * With an Idempotency-Key the submission id is derived from the key and the caller (a key belongs
 * to whoever sent it: another caller's request under the same key is another submission), so a
 * client retry after a crash between 2 and 3 captures the item under the number it was already
 * given; without one, a crash there
 * leaves an unused number (a gap), never a double-counted item — the product's itemCount counts
 * captured items, not allocated numbers.
 */
import {
  capturedText,
  type ItemState,
  type ItemStatus,
  itemDecider,
  itemStreamId,
} from '../../../commands/item/index.js';
import {
  foldedNumber,
  productDecider,
  rememberedFold,
  productStreamId,
  type SubmissionFold,
} from '../../../commands/product/index.js';
import { FailedPrecondition } from '../../../commands/shared/errors.js';
import { type CommandContext, type CommandDeps, idFor, keyedBy, latest } from './deps.js';
import { followMerges } from './merge-chain.js';
import { type PeopleDeps, type Requester, registerPerson } from './people.js';

export interface SubmitFeedbackInput {
  workspaceId: string;
  productKey: string;
  body: string;
  /** blank or absent: derived from the opening of the body */
  title?: string | null;
  requester: Requester;
  /** members (CLI import) may file into a private product; the public may not */
  allowPrivate?: boolean;
  /** imports only: the original creation time; one later than now is recorded as now */
  createdAt?: number;
  /** the same-body fold, for submissions it applies to (capture/file.ts) */
  fold?: SubmissionFold;
  /** the requester's person, when the caller resolved it already (capture/file.ts's fold) */
  personId?: string;
}

export interface Submitted {
  /** the item, or the one it was merged into */
  itemKey: string;
  title: string;
  /** the item's status as this submission left it: `new`, unless it folded into an older one */
  status: ItemStatus;
  personId: string;
  /** true: an earlier submission's item was answered, this one captured nothing */
  folded: boolean;
  position: bigint | null;
}

export async function submitFeedback(
  deps: PeopleDeps,
  context: CommandContext,
  input: SubmitFeedbackInput,
): Promise<Submitted> {
  const { workspaceId, productKey, fold } = input;
  // refused before the product allocates a number: a refused submission writes nothing
  capturedText(input.body, input.title);
  const submissionId = submissionIdFor(context);
  // a retry is the same submission when it sends the same: the fold's time is the attempt's own
  const { body, title, requester } = input;
  const keyed = keyedBy(context, { workspaceId, productKey, body, title, requester });
  const allocation = await deps.commandHandler.handle(
    productStreamId(workspaceId, productKey),
    productDecider,
    {
      type: 'AllocateItemNumber',
      data: { submissionId, allowPrivate: input.allowPrivate ?? false, ...(fold ? { fold } : {}) },
    },
    keyed,
  );
  const product = allocation.state;
  if (product.status !== 'active') throw new FailedPrecondition('product vanished');
  // a retry's number is the one its first attempt was given (under another submission id
  // before an upgrade: commands/shared/request-hash.ts)
  const first = allocation.replayed ? allocation.events[0] : undefined;
  const given =
    first?.type === 'ItemNumberAllocated' ? (first.data as { number: number }).number : undefined;
  // a retry of a folded submission reads the product as it left it: the item it folded into
  const folding =
    fold && (allocation.replayed ? rememberedFold(product, fold.key) : foldedNumber(product, fold));
  const number = given ?? product.allocations.get(submissionId) ?? folding;
  if (!number) throw new FailedPrecondition('no item number was allocated');
  const person = await registerPerson(deps, context, {
    workspaceId,
    requester: input.requester,
    ...(input.personId ? { personId: input.personId } : {}),
  });
  const stream = itemStreamId(workspaceId, `${productKey}-${number}`);
  const captured = await deps.commandHandler.handle(
    stream,
    itemDecider,
    {
      type: 'CaptureItem',
      data: {
        workspaceId,
        productKey,
        number,
        title: input.title ?? null,
        body: input.body,
        author: {
          personId: person.personId,
          tier: person.tier,
          displayName: person.displayName,
          avatar: person.avatar,
        },
        ...(context.via ? { via: context.via } : {}),
        // never after its recording: a later status change or reply would precede the creation
        // (an import file's clock may be ahead of this one; file.ts allows a day)
        ...(input.createdAt !== undefined
          ? { createdAt: Math.min(input.createdAt, context.now) }
          : {}),
        ...(fold ? { ifAbsent: true } : {}),
      },
    },
    keyed,
  );
  const folded = captured.events.length === 0;
  // the item another submission captured is read at its stream's last event
  const seen = folded ? (await deps.commandHandler.load(stream, itemDecider)).position : null;
  const answer = await answerOf(deps, workspaceId, captured.state);
  return {
    ...answer,
    personId: person.personId,
    folded,
    position: latest(allocation.position, person.position, captured.position, seen, answer.seen),
  };
}

/**
 * The item an earlier submission of the same person and body made, when `fold` folds into one
 * already captured: looked up before a submission is charged to any rate bucket, so repeating
 * oneself costs nothing. Null when there is none — or when it is still on its way, in which case
 * the submission joins it (submitFeedback).
 */
export async function foldedItem(
  deps: CommandDeps,
  input: { workspaceId: string; productKey: string; fold: SubmissionFold; allowPrivate: boolean },
): Promise<(SubmissionAnswer & { position: bigint | null }) | null> {
  const { workspaceId, productKey } = input;
  // a look-ahead: a fold it misses (another process's, a moment old) is decided on allocation
  const product = await deps.commandHandler.peek(
    productStreamId(workspaceId, productKey),
    productDecider,
  );
  if (product.status !== 'active') return null;
  if (product.visibility === 'private' && !input.allowPrivate) return null;
  const number = foldedNumber(product, input.fold);
  if (number === null) return null;
  const stream = itemStreamId(workspaceId, `${productKey}-${number}`);
  const { state, position } = await deps.commandHandler.load(stream, itemDecider);
  if (state.status === 'absent') return null;
  const { seen, ...answer } = await answerOf(deps, workspaceId, state);
  return { ...answer, position: latest(position, seen) };
}

type SubmissionAnswer = Pick<Submitted, 'itemKey' | 'title' | 'status'>;

/**
 * What a submission answers of its item: the one it lives on in (the end of its merges:
 * merge-chain.ts), its title and its status — as they are, so a submission folded into an item
 * already shipped does not call it `new`, nor one folded into a merged item answer the survivor's
 * key with the merged item's title and status. `seen`: the position the survivor was read at,
 * for the answer's read-your-writes.
 */
async function answerOf(
  deps: CommandDeps,
  workspaceId: string,
  item: ItemState,
): Promise<SubmissionAnswer & { seen: bigint | null }> {
  if (item.status !== 'merged') return answerFrom(item, null);
  const { states, position } = await followMerges(deps, workspaceId, item.itemKey);
  return answerFrom(states.at(-1)!, position);
}

function answerFrom(
  state: ItemState,
  seen: bigint | null,
): SubmissionAnswer & { seen: bigint | null } {
  if (state.status === 'absent') throw new FailedPrecondition('item vanished');
  return { itemKey: state.itemKey, title: state.title, status: state.itemStatus, seen };
}

/** The id AllocateItemNumber files this submission under (see the top of this file). */
export function submissionIdFor(context: CommandContext): string {
  return idFor('', context, 'submission');
}
