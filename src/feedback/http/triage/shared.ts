/**
 * What the triage operations share: the workspace the caller was authorized for, the command
 * context of a write, and the status chosen for domain refusals the spec does not place.
 */
import type { CommandContext } from '../../../write/command-handler.js';
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
  ctx: {
    principal: Caller;
    correlationId: string;
    clientCorrelationId?: string;
    idempotencyKey: string | undefined;
  },
): CommandContext {
  return commandContext(deps, ctx.principal, ctx);
}

/**
 * The declared statuses of the triage operations are 400/401/403/404 only, so a command refused
 * because of the item's state (it was merged into another item and is read-only; it was already
 * merged elsewhere) answers 400 invalid-argument with the reason, instead of the envelope's
 * generic 409 for failed-precondition.
 */
export const REFUSED_AS_INVALID = { 'failed-precondition': 'invalid-argument' } as const;
