// Placeholder until the triage operations land (issue 3): list_products … resolve_item, submit_feedback.
import type { FeedbackHttpDeps, FeedbackOperation } from '../types.js';

export function triageOperations(_deps: FeedbackHttpDeps): FeedbackOperation[] {
  return [];
}
