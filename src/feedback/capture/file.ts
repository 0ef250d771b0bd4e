/**
 * Filing feedback from the public: the one path shared by the board page, the capture endpoint,
 * the widget and submit_feedback. In order:
 *   1. content rules (links, not only whitespace) — guard.ts;
 *   2. the same body from the same person on the same product within FOLD_WINDOW_MS is folded
 *      into the first item: its key is answered and nothing is appended (a double click, a
 *      retried form, a bot repeating itself);
 *   3. the rate buckets (per IP, per person, per product) — guard.ts;
 *   4. submitFeedback (person, item number, item).
 * Nothing refused reaches the event log. Members of the workspace filing through the API (a
 * maker recording a customer's feedback, an import) skip steps 1 and 3: the guard is there for
 * the public, and a workspace's own people are already accountable. Bearer callers of
 * submit_feedback are counted per account and per product, not per IP: many users' assistants
 * may call from one provider's address.
 */
import { deriveTitle } from '../../../commands/item/index.js';
import { itemsOf } from '../../../projections/items/document.js';
import type { ReadStore } from '../../readstore/types.js';
import {
  type CommandContext,
  type CommandDeps,
  personIdFor,
  type Requester,
  submitFeedback,
} from '../actions/index.js';
import type { Asker, CaptureGuard } from './guard.js';

/** spec of issue 12: "the same body from the same visitor within 10 minutes is folded" */
export const FOLD_WINDOW_MS = 10 * 60 * 1000;

export interface CaptureDeps extends CommandDeps {
  readStore: ReadStore;
  guard: CaptureGuard;
}

export interface CaptureInput {
  workspaceId: string;
  productKey: string;
  title: string | null;
  body: string;
  requester: Requester;
  /** who asks, for the buckets; absent for members (no public limits apply) */
  asker?: Omit<Asker, 'product'>;
  /** a member of the workspace may file into a private product */
  member?: boolean;
}

export interface Captured {
  itemKey: string;
  title: string;
  /** true: an earlier item of the same person and body was answered instead */
  folded: boolean;
  position: bigint | null;
}

export async function captureFeedback(
  deps: CaptureDeps,
  context: CommandContext,
  input: CaptureInput,
): Promise<Captured> {
  const { workspaceId, productKey, body, asker } = input;
  const title = input.title?.trim() ? input.title.trim() : null;
  if (asker) deps.guard.checkContent({ title, body });
  const personId = foldable(input.requester)
    ? personIdFor(workspaceId, input.requester, context)
    : null;
  if (personId) {
    const first = await itemsOf(deps.readStore).findOne(
      {
        _ws: workspaceId,
        productId: productKey,
        _submitterId: personId,
        body,
        createdAt: { $gte: context.now - FOLD_WINDOW_MS },
      },
      { sort: { createdAt: 1 } },
    );
    if (first) {
      const itemKey = first._mergedInto ?? first.id;
      return { itemKey, title: first.title, folded: true, position: null };
    }
  }
  if (asker) {
    await deps.guard.takeSubmission({ ...asker, product: `${workspaceId}.${productKey}` });
  }
  const { itemKey, position } = await submitFeedback(deps, context, {
    workspaceId,
    productKey,
    body,
    title,
    requester: input.requester,
    allowPrivate: input.member ?? false,
  });
  return { itemKey, title: title ?? deriveTitle(body), folded: false, position };
}

/** a requester who is the same person next time (a cookie, an address, an account) */
function foldable(requester: Requester): boolean {
  return Boolean(requester.anonymousId || requester.email?.trim());
}
