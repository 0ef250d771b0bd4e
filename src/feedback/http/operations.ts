/**
 * Every operation of the feedback board, in one list for the registry (routes, OpenAPI, /docs,
 * MCP tools). Each operation's access rule (scope, membership, admin) is appended to its OpenAPI
 * description here, from the same `meta` that authorize() reads, so the two cannot disagree.
 */
import type { EventStore } from '../../eventstore/types.js';
import type { PersonIds } from '../actions/index.js';
import type { CaptureGuard } from '../capture/guard.js';
import { accessNote } from '../auth/authorize.js';
import { type AccountHttpDeps, accountOperations } from './account/index.js';
import { type FollowupHttpDeps, followupOperations } from './followup/index.js';
import { type HistoryHttpDeps, historyOperations } from './history/index.js';
import { integrationOperations } from './integrations/index.js';
import { publicChangelogOperation } from './public/changelog.js';
import { roadmapOperation } from './public/roadmap.js';
import { triageOperations } from './triage/index.js';
import type { FeedbackOperation } from './types.js';
import { type WebhookHttpDeps, webhookOperations } from './webhooks/index.js';

export type FeedbackOperationDeps = AccountHttpDeps &
  FollowupHttpDeps &
  HistoryHttpDeps &
  WebhookHttpDeps & { eventStore: EventStore; guard: CaptureGuard; personIds: PersonIds };

export function feedbackOperations(deps: FeedbackOperationDeps): FeedbackOperation[] {
  return [
    ...triageOperations(deps),
    roadmapOperation(deps),
    publicChangelogOperation(deps),
    ...followupOperations(deps),
    ...historyOperations(deps),
    ...accountOperations(deps),
    ...webhookOperations(deps),
    ...integrationOperations(deps),
  ].map(documentAccess);
}

function documentAccess(op: FeedbackOperation): FeedbackOperation {
  if (op.auth !== 'bearer') return op;
  const note = accessNote(op.meta);
  return { ...op, extraDescription: [op.extraDescription, note].filter(Boolean).join('\n\n') };
}
