/**
 * Changes of a workspace integration credential's stream for the audit trail: who minted a
 * credential that writes into the workspace, and who revoked it. The credential's hash is left
 * out: the compared fields are picked one by one (its name, whether it is revoked).
 */
import {
  evolveIntegration,
  type IntegrationEvent,
  type IntegrationState,
  initialIntegrationState,
} from '../../../commands/integration/index.js';
import { asRecorded } from '../../../projections/shared/recorded.js';
import type { RecordedEvent } from '../../eventstore/types.js';
import type { ActorView } from '../../../projections/people/actor.js';
import { actorWord, type Change, changeOf, diff } from './change.js';
import { quoted } from './words.js';

export function integrationChange(
  raw: RecordedEvent,
  earlierRaw: readonly RecordedEvent[],
  actor: ActorView,
): Change {
  const event = asRecorded<IntegrationEvent>(raw);
  let state = initialIntegrationState();
  for (const e of earlierRaw) state = evolveIntegration(state, asRecorded<IntegrationEvent>(e));
  const before = viewOf(state);
  const after = viewOf(evolveIntegration(state, event));
  const who = actorWord(actor);
  const name = quoted(after?.name ?? before?.name ?? '');
  let summary: string;
  switch (event.type) {
    case 'IntegrationCreated':
      summary = `${who} created the integration credential ${name}`;
      break;
    case 'IntegrationRevoked':
      summary = `${who} revoked the integration credential ${name}`;
      break;
    default: {
      const _exhaustive: never = event;
      summary = `${who} changed the integration credential ${name}`;
    }
  }
  return changeOf(raw, { itemKey: null, actor, summary, changes: diff(before, after) });
}

function viewOf(state: IntegrationState): { name: string; revoked: boolean } | null {
  if (state.status === 'absent') return null;
  return { name: state.name, revoked: state.status === 'revoked' };
}
