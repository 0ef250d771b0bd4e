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
 * With an Idempotency-Key the submission id is derived from the key and the caller (a key belongs
 * to whoever sent it: another caller's request under the same key is another submission), so a
 * client retry after a crash between 2 and 3 captures the item under the number it was already
 * given; without one, a crash there
 * leaves an unused number (a gap), never a double-counted item — the product's itemCount counts
 * captured items, not allocated numbers.
 */
import { itemDecider, itemStreamId } from '../../../commands/item/index.js';
import { productDecider, productStreamId } from '../../../commands/product/index.js';
import { FailedPrecondition } from '../../../commands/shared/errors.js';
import { type CommandContext, type CommandDeps, idFor, latest } from './deps.js';
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
  const submissionId = submissionIdFor(context);
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
  const person = await registerPerson(deps, context, { workspaceId, requester: input.requester });
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
    position: latest(allocation.position, person.position, captured.position),
  };
}

/** The id AllocateItemNumber files this submission under (see the top of this file). */
export function submissionIdFor(context: CommandContext): string {
  return idFor('', context, 'submission');
}
