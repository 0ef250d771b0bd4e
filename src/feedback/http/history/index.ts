/** Item history, as-of, the audit trail and unmerge (issue 15). */
import type { EventStore } from '../../../eventstore/types.js';
import type { FeedbackOperation } from '../types.js';
import { auditOperation } from './audit.js';
import { type HistoryHttpDeps, itemHistoryOperations } from './item-history.js';
import { unmergeOperation } from './unmerge.js';

export type { HistoryHttpDeps } from './item-history.js';

export function historyOperations(
  deps: HistoryHttpDeps & { eventStore: EventStore },
): FeedbackOperation[] {
  return [...itemHistoryOperations(deps), auditOperation(deps), unmergeOperation(deps)];
}
