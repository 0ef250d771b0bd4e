/**
 * People, close-the-loop and synthesis operations (issue 4): list_people, search_people,
 * get_person, who_needs_followup, notify_people, draft_changelog_entry, summarize_feedback,
 * search_items.
 */
import type { FeedbackOperation } from '../types.js';
import { closeTheLoopOperations } from './close-the-loop.js';
import { peopleOperations } from './people.js';
import type { FollowupHttpDeps } from './shared.js';
import { synthesisOperations } from './synthesis.js';

export type { FollowupHttpDeps } from './shared.js';

export function followupOperations(deps: FollowupHttpDeps): FeedbackOperation[] {
  return [
    ...peopleOperations(deps, deps.search),
    ...closeTheLoopOperations(deps),
    ...synthesisOperations(deps, deps.search),
  ];
}
