/**
 * Changes of the workspace's other streams (workspace, products, people, changelog entries) for
 * the audit trail. Their streams are short, so the state before an event is the stream's earlier
 * events read again: each field an event sets is compared with the value the stream last set it
 * to (membership per user).
 */
import { personStreamId } from '../../../commands/person/index.js';
import { userById } from '../../../projections/users/queries.js';
import type { RecordedEvent } from '../../eventstore/types.js';
import type { ReadStore } from '../../readstore/types.js';
import type { ActorView } from '../../../projections/people/actor.js';
import { actorWord, type Change, changeOf, type FieldChange } from './change.js';
import { quoted } from './words.js';

type Data = Record<string, unknown>;

export async function workspaceChange(
  readStore: ReadStore,
  event: RecordedEvent,
  earlier: readonly RecordedEvent[],
  actor: ActorView,
  itemKey: string | null,
): Promise<Change> {
  const data = (event.data ?? {}) as Data;
  const membership = typeof data.userId === 'string' && event.type.startsWith('Member');
  const changes = membership
    ? memberChanges(event, earlier, data.userId as string)
    : fieldChanges(data, lastValues(earlier));
  const who = actorWord(actor);
  const summary = await sentence(readStore, event, earlier, who, itemKey);
  return changeOf(event, { itemKey, actor, summary, changes });
}

function lastValues(earlier: readonly RecordedEvent[]): Data {
  const values: Data = {};
  for (const e of earlier) Object.assign(values, e.data as Data);
  return values;
}

function fieldChanges(data: Data, before: Data): Record<string, FieldChange> {
  const changes: Record<string, FieldChange> = {};
  for (const [key, to] of Object.entries(data)) {
    const from = before[key] ?? null;
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[key] = { from, to };
  }
  return changes;
}

function roleBefore(earlier: readonly RecordedEvent[], userId: string): unknown {
  let role: unknown = null;
  for (const e of earlier) {
    const d = e.data as Data;
    if (d.userId !== userId) continue;
    role = e.type === 'MemberRemoved' ? null : (d.role ?? role);
  }
  return role;
}

function memberChanges(
  event: RecordedEvent,
  earlier: readonly RecordedEvent[],
  userId: string,
): Record<string, FieldChange> {
  const from = roleBefore(earlier, userId);
  const to = event.type === 'MemberRemoved' ? null : ((event.data as Data).role ?? null);
  return { [`members.${userId}.role`]: { from, to } };
}

async function sentence(
  readStore: ReadStore,
  event: RecordedEvent,
  earlier: readonly RecordedEvent[],
  who: string,
  itemKey: string | null,
): Promise<string> {
  const data = (event.data ?? {}) as Data;
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const userName = async () =>
    (await userById(readStore, text(data.userId)))?.displayName ?? 'a user';
  const productKey = event.streamId.slice(event.streamId.lastIndexOf('.') + 1);
  const before = lastValues(earlier);
  switch (event.type) {
    case 'WorkspaceCreated':
      return `${who} created the workspace ${quoted(text(data.name))}`;
    case 'MemberAdded':
      return `${who} added ${await userName()} as ${text(data.role)}`;
    case 'MemberRoleChanged':
      return `${who} made ${await userName()} ${data.role === 'admin' ? 'an admin' : 'a member'}`;
    case 'MemberRemoved':
      return `${who} removed ${await userName()} from the workspace`;
    case 'ProductCreated':
      return `${who} created the ${text(data.visibility)} product ${text(data.key)} ${quoted(text(data.name))}`;
    case 'ProductRenamed':
      return `${who} renamed the product ${productKey} from ${quoted(text(before.name))} to ${quoted(text(data.name))}`;
    case 'ProductVisibilityChanged':
      return `${who} made the product ${productKey} ${text(data.visibility)}`;
    case 'PersonCreated': {
      const name = text(data.displayName);
      // filed by themselves (the board, the widget, submit_feedback from outside the workspace)
      if (event.metadata.actor && event.streamId === personStreamId(event.metadata.actor)) {
        return `${name || 'An anonymous visitor'} was added to the workspace's people`;
      }
      return `${who} registered the person ${name || 'without a name'}`;
    }
    case 'PersonUpdated': {
      const name = text(data.displayName) || text(before.displayName) || 'without a name';
      return `${who} updated the person ${name} (${Object.keys(data).join(', ')})`;
    }
    case 'ChangelogEntryPublished':
      return `${who} published the changelog entry ${quoted(text(data.title))} for ${itemKey}`;
    case 'ChangelogEntryRevised':
      return `${who} revised the changelog entry for ${itemKey}`;
    default:
      return `${who} recorded ${event.type}`;
  }
}
