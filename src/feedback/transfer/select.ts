/**
 * Which streams make up a workspace, for an export that an empty instance can answer from
 * exactly as the source does:
 *   - its own streams: `workspace-<id>`, `product-<id>.*`, `item-<id>.*`, `changelog-<id>.*`,
 *     its webhooks `webhook-<id>.*` and their roster `webhookroster-<id>`;
 *   - its people and integrations: `person-<id>` and `integration-<id>` streams opened by a
 *     PersonCreated or IntegrationCreated naming the workspace;
 *   - the users it needs: members (ever added) and every actor of the streams above that is a
 *     user, so memberships and the names in history and the audit trail come out the same.
 * Not exported: users' tokens (credentials belong to an instance: create new ones after an
 * import), other workspaces, the notes service, and what lives only in the read store (webhook
 * deliveries and their attempts, OAuth apps and grants). A webhook's signing secret is in its
 * events sealed under the source's APP_SECRET, never in clear; an integration's credential is
 * only its SHA-256 (settle.ts says what the target does with each).
 */
import type { SourceRow } from './source.js';

export interface WorkspaceStreams {
  has(streamId: string): boolean;
  readonly size: number;
}

/** One pass over the log; `rows` yields it page by page. */
export async function workspaceStreams(
  workspaceId: string,
  rows: AsyncIterable<SourceRow[]>,
): Promise<WorkspaceStreams> {
  const own = [
    `product-${workspaceId}.`,
    `item-${workspaceId}.`,
    `changelog-${workspaceId}.`,
    `webhook-${workspaceId}.`,
  ];
  const whole = [`workspace-${workspaceId}`, `webhookroster-${workspaceId}`];
  const streams = new Set<string>();
  const users = new Set<string>();
  const userStreams = new Set<string>();
  for await (const page of rows) {
    for (const row of page) {
      if (row.streamId.startsWith('user-')) {
        userStreams.add(row.streamId);
        continue;
      }
      const mine =
        whole.includes(row.streamId) ||
        own.some((prefix) => row.streamId.startsWith(prefix)) ||
        streams.has(row.streamId) ||
        (OPENED_BY.has(row.type) && row.revision === 0 && workspaceOf(row) === workspaceId);
      if (!mine) continue;
      streams.add(row.streamId);
      const actor = (JSON.parse(row.metadata) as { actor?: unknown }).actor;
      if (typeof actor === 'string') users.add(actor);
      if (row.type === 'MemberAdded') {
        const userId = (JSON.parse(row.data) as { userId?: unknown }).userId;
        if (typeof userId === 'string') users.add(userId);
      }
    }
  }
  for (const userId of users) {
    if (userStreams.has(`user-${userId}`)) streams.add(`user-${userId}`);
  }
  return { has: (streamId) => streams.has(streamId), size: streams.size };
}

/** the first events of the streams a workspace owns without its id in their names */
const OPENED_BY = new Set(['PersonCreated', 'IntegrationCreated']);

function workspaceOf(row: SourceRow): unknown {
  return (JSON.parse(row.data) as { workspaceId?: unknown }).workspaceId;
}
