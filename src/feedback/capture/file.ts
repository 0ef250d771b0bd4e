/**
 * Filing feedback from the public: the one path shared by the board page, the capture endpoint,
 * the widget and submit_feedback. In order:
 *   1. content rules (links, not only whitespace) — guard.ts;
 *   2. the same body from the same person on the same product within FOLD_WINDOW_MS is folded
 *      into the first item: its key is answered and nothing is appended (a double click, a
 *      retried form, a bot repeating itself) — looked up before any bucket is charged; with an
 *      Idempotency-Key it is still decided in step 4 (uncharged), which keeps the key;
 *   3. the rate buckets (per IP, per person, per product) — guard.ts: a token of each is held,
 *      and given back when step 4 files nothing (the product refuses it), so only what is filed
 *      is counted; a submission whose If-Match or If-None-Match cannot hold only checks them
 *      (peek, writing nothing), as it will be refused 412 in step 4;
 *   4. submitFeedback (person, item number, item). The product decides the fold where its
 *      submissions are serialised (commands/product/decide.ts), so requests sent together fold
 *      as well as requests sent one after another.
 * Nothing refused reaches the event log. Members of the workspace filing through the API (a
 * maker recording a customer's feedback, an import) skip steps 1 and 3: the guard is there for
 * the public, and a workspace's own people are already accountable. Bearer callers of
 * submit_feedback are counted per account and per product, not per IP: many users' assistants
 * may call from one provider's address.
 */
import { createHash } from 'node:crypto';
import { capturedText, type ItemStatus } from '../../../commands/item/index.js';
import {
  type CommandContext,
  foldedItem,
  type PeopleDeps,
  type Requester,
  submitFeedback,
} from '../actions/index.js';
import type { Asker, CaptureGuard } from './guard.js';
import { settling } from '../../limits/index.js';

export interface CaptureDeps extends PeopleDeps {
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
  /** the item's status: `new`, or the older item's when folded into it */
  status: ItemStatus;
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
  // the item's own rules (control characters, a visible character) before any bucket is spent
  capturedText(body, title);
  if (asker) deps.guard.checkContent({ title, body });
  const personId = foldable(input.requester)
    ? await deps.personIds.resolve(workspaceId, input.requester, context)
    : null;
  const fold = personId ? { key: foldKeyOf(personId, body), at: context.now } : undefined;
  const allowPrivate = input.member ?? false;
  const earlier = fold
    ? await foldedItem(deps, { workspaceId, productKey, fold, allowPrivate })
    : null;
  // a keyed submission is decided by the product even when it folds, so that its key is kept
  // and a retry answers as the first attempt did (not as the item is by then, nor a new item
  // once the fold's window has passed); a fold charges no bucket either way
  if (earlier && !context.idempotencyKey) return { ...earlier, folded: true };
  // a submission its If-Match or If-None-Match refuses (submitFeedback decides it, then refuses
  // it: RFC 9110 §13.1.1, §13.1.2) files nothing, so it spends and writes nothing, but a spent
  // bucket still answers 429 first, as it would without the precondition (the search budget's
  // rule too, src/http/lifecycle.ts); any other submission holds its tokens, given back when it
  // files nothing
  const charged = asker && !earlier ? { ...asker, product: `${workspaceId}.${productKey}` } : null;
  if (charged && context.unmetPrecondition) await deps.guard.peekSubmission(charged);
  const settle =
    charged && !context.unmetPrecondition ? await deps.guard.holdSubmission(charged) : null;
  const filing = submitFeedback(deps, context, {
    workspaceId,
    productKey,
    body,
    title,
    requester: input.requester,
    allowPrivate,
    ...(fold ? { fold } : {}),
    ...(personId ? { personId } : {}),
  });
  // a submission the product folded into an earlier item (sent together) filed nothing new
  const submitted = settle ? await settling(settle, filing, (s) => !s.folded) : await filing;
  const { itemKey, status, folded, position } = submitted;
  return { itemKey, title: submitted.title, status, folded, position };
}

/** What the fold compares: the person and the body, as one digest (the event records it). */
function foldKeyOf(personId: string, body: string): string {
  return createHash('sha256').update(`${personId}\u0000${body}`).digest('base64url');
}

/** a requester who is the same person next time (a cookie, an address, an account) */
function foldable(requester: Requester): boolean {
  return Boolean(requester.anonymousId || requester.email?.trim());
}
