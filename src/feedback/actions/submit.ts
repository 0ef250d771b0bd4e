/**
 * submit_feedback and +1s: the public side that creates items.
 *
 * Submitting touches three streams, in an order that converges after a crash at any point:
 *   1. person-<id>    RegisterPerson (upsert; repeating it appends nothing)
 *   2. product-<ws>.<KEY>  AllocateItemNumber for this submission id (a repeat gets the same number)
 *   3. item-<ws>.<KEY-n>   CaptureItem (the stream must not exist; a repeat with the same
 *      Idempotency-Key is answered from the first capture)
 * With an Idempotency-Key the submission id is the key, so a client retry after a crash between
 * 2 and 3 captures the item under the number it was already given; without one, a crash there
 * leaves an unused number (a gap), never a double-counted item — the product's itemCount counts
 * captured items, not allocated numbers.
 */
import { randomUUID } from 'node:crypto';
import { itemDecider, itemStreamId } from '../../../commands/item/index.js';
import { productDecider, productStreamId } from '../../../commands/product/index.js';
import { FailedPrecondition } from '../../../commands/shared/errors.js';
import { type CommandContext, type CommandDeps, latest } from './deps.js';
import { type Requester, registerPerson } from './people.js';

export interface SubmitFeedbackInput {
  workspaceId: string;
  productKey: string;
  body: string;
  /** blank or absent: derived from the opening of the body */
  title?: string | null;
  requester: Requester;
  /** members (CLI import) may file into a private product; the public may not */
  allowPrivate?: boolean;
  /** imports only: the original creation time */
  createdAt?: number;
}

export async function submitFeedback(
  deps: CommandDeps,
  context: CommandContext,
  input: SubmitFeedbackInput,
): Promise<{ itemKey: string; personId: string; position: bigint | null }> {
  const { workspaceId, productKey } = input;
  const person = await registerPerson(deps, context, { workspaceId, requester: input.requester });
  const submissionId = context.idempotencyKey ?? randomUUID();
  const allocation = await deps.commandHandler.handle(
    productStreamId(workspaceId, productKey),
    productDecider,
    {
      type: 'AllocateItemNumber',
      data: { submissionId, allowPrivate: input.allowPrivate ?? false },
    },
    context,
  );
  const product = allocation.state;
  if (product.status !== 'active') throw new FailedPrecondition('product vanished');
  const number = product.allocations[submissionId]!;
  const captured = await deps.commandHandler.handle(
    itemStreamId(workspaceId, `${productKey}-${number}`),
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
        ...(input.createdAt !== undefined ? { createdAt: input.createdAt } : {}),
      },
    },
    context,
  );
  return {
    itemKey: `${productKey}-${number}`,
    personId: person.personId,
    position: latest(person.position, allocation.position, captured.position),
  };
}

/**
 * A person's +1. On a merged item it lands on the survivor (following the chain), because the
 * merged item lives on there and refuses changes of its own; it is recorded there as given on
 * the merged item (`addressedTo`), so an unmerge gives it back. A +1 the merged item already
 * counts (its submitter, its own +1s) adds nothing.
 */
export async function addPlusOne(
  deps: CommandDeps,
  context: CommandContext,
  input: { workspaceId: string; itemKey: string; personId: string },
): Promise<{ itemKey: string; changed: boolean; position: bigint | null }> {
  let itemKey = input.itemKey;
  for (let hops = 0; hops < 20; hops++) {
    const { state } = await deps.commandHandler.load(
      itemStreamId(input.workspaceId, itemKey),
      itemDecider,
    );
    if (state.status !== 'merged') break;
    if (itemKey === input.itemKey) {
      const counted =
        state.submitterId === input.personId || state.plusOnes.includes(input.personId);
      if (counted) return { itemKey: state.survivorKey, changed: false, position: null };
    }
    itemKey = state.survivorKey;
  }
  const result = await deps.commandHandler.handle(
    itemStreamId(input.workspaceId, itemKey),
    itemDecider,
    { type: 'AddPlusOne', data: { personId: input.personId, addressedTo: input.itemKey } },
    context,
  );
  return { itemKey, changed: result.events.length > 0, position: result.position };
}
