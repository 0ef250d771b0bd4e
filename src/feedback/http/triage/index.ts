/**
 * The triage operations of the feedback board (spec "Read", "Triage", "Public"), plus
 * submit_feedback so that items can exist. Statuses chosen where the spec leaves them open:
 *   - a write refused because of the item's state (merged, already merged) -> 400 (shared.ts);
 *   - merge_items: self-merge / merged again -> 400, unknown key -> 404 (merge.ts);
 *   - resolve_item declares no 400: a malformed key answers 404 (read-item.ts);
 *   - submit_feedback: 200; the public board's spam and rate limits, 429 with Retry-After
 *     (submit.ts, src/feedback/capture).
 * Admin-only: update_product. Every other workspace operation is open to any member.
 */
import type { RecoveryDeps } from '../../actions/continued.js';
import type { ItemTimelines } from '../../activity/timeline.js';
import type { CaptureGuard } from '../../capture/guard.js';
import type { FeedbackHttpDeps, FeedbackOperation } from '../types.js';
import { itemEditOperations } from './item-edits.js';
import { listItemsOperation } from './list-items.js';
import { mergeOperation } from './merge.js';
import { productOperations } from './products.js';
import { readItemOperations } from './read-item.js';
import { replyOperation } from './reply.js';
import { submitOperation } from './submit.js';
import type { PersonIds } from '../../actions/index.js';

export function triageOperations(
  deps: FeedbackHttpDeps &
    RecoveryDeps & { guard: CaptureGuard; timelines: ItemTimelines; personIds: PersonIds },
): FeedbackOperation[] {
  return [
    ...productOperations(deps),
    listItemsOperation(deps),
    ...readItemOperations(deps),
    ...itemEditOperations(deps),
    mergeOperation(deps),
    replyOperation(deps),
    submitOperation(deps),
  ];
}
