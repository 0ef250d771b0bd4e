// Placeholder until the close-the-loop operations land (issue 4): people, follow-up, notify, changelog, summary, search.
import type { FeedbackHttpDeps, FeedbackOperation } from '../types.js';

export function followupOperations(_deps: FeedbackHttpDeps): FeedbackOperation[] {
  return [];
}
