/**
 * What the triage operations share: the workspace the caller was authorized for, the command
 * context of a write, reading a document once the projections reached a write, and the statuses chosen for
 * domain refusals the spec does not place.
 */
import { FailedPrecondition, InvalidArgument } from '../../../../commands/shared/errors.js';
import type { CommandContext } from '../../../commands/handler.js';
import type { Collection, Doc } from '../../../readstore/types.js';
import {
  type Caller,
  commandContext,
  type FeedbackAccess,
  type FeedbackHttpDeps,
} from '../types.js';

/** Workspace routes run only after authorize checked live membership; this is what it found. */
export function workspaceOf(access: FeedbackAccess | undefined): FeedbackAccess {
  // authorize always hands FeedbackAccess to `meta.workspace` routes; a gap here is a wiring bug
  if (!access) throw new TypeError('workspace route reached its handler without a membership');
  return access;
}

export function contextOf(
  deps: FeedbackHttpDeps,
  ctx: { principal: Caller; correlationId: string; idempotencyKey: string | undefined },
): CommandContext {
  return commandContext(deps, ctx.principal, ctx);
}

/**
 * The declared statuses of the triage operations are 400/401/403/404 only, so a command refused
 * because of the item's state (it was merged into another item and is read-only; it was already
 * merged elsewhere) answers 400 invalid-argument with the reason, instead of the envelope's
 * generic 409 for failed-precondition. Everything else passes through unchanged.
 */
export async function withinDeclaredStatuses<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof FailedPrecondition) throw new InvalidArgument(error.message);
    throw error;
  }
}

/**
 * The document `id` as of a write that reached `position` (null: nothing was appended). Operations
 * that answer the changed resource (update_item, update_product) read it after the projections.
 */
export async function documentAsOf<T extends Doc>(
  deps: Pick<FeedbackHttpDeps, 'waitFor'>,
  collection: Collection<T>,
  id: string,
  position: bigint | null,
): Promise<T | null> {
  if (position !== null) await deps.waitFor(position);
  return collection.findOne({ _id: id });
}
