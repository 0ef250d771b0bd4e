import type { MemberRole, WorkspaceEvent } from '../../commands/workspace/index.js';
import type { Collection, Doc, ReadStore } from '../../src/readstore/types.js';
import { guardedUpdate } from '../shared/guard.js';
import type { Projector } from '../shared/projector.js';
import { asRecorded } from '../shared/recorded.js';

export interface WorkspaceDoc extends Doc {
  workspaceId: string;
  name: string;
  slug: string;
  createdAt: number;
}

/**
 * One per (workspace, user). A removed member keeps a document with `active: false` so a
 * replayed MemberAdded (older position) cannot bring the membership back.
 */
export interface MembershipDoc extends Doc {
  workspaceId: string;
  slug: string;
  userId: string;
  role: MemberRole;
  active: boolean;
}

export const WORKSPACES = 'workspaces';
export const MEMBERSHIPS = 'memberships';
export const workspacesOf = (s: ReadStore): Collection<WorkspaceDoc> => s.collection(WORKSPACES);
export const membershipsOf = (s: ReadStore): Collection<MembershipDoc> => s.collection(MEMBERSHIPS);
export const membershipId = (workspaceId: string, userId: string): string =>
  `${workspaceId}:${userId}`;

export function workspacesProjector(): Projector {
  return {
    name: 'workspaces',
    collections: [WORKSPACES, MEMBERSHIPS],
    filter: { streamPrefixes: ['workspace-'] },
    async setup(store) {
      await workspacesOf(store).createIndex({ keys: { slug: 1 }, name: 'workspaces_slug' });
      await membershipsOf(store).createIndex({
        keys: { userId: 1, active: 1 },
        name: 'memberships_user',
      });
      await membershipsOf(store).createIndex({
        keys: { slug: 1, userId: 1 },
        name: 'memberships_slug_user',
      });
    },
    async apply(raw, store) {
      const event = asRecorded<WorkspaceEvent>(raw);
      const workspaceId = event.streamId.slice('workspace-'.length);
      const at = event.position;
      switch (event.type) {
        case 'WorkspaceCreated':
          await guardedUpdate(
            workspacesOf(store),
            workspaceId,
            at,
            { $set: { ...event.data, createdAt: event.metadata.occurredAt } },
            { upsert: true },
          );
          return;
        case 'MemberAdded':
        case 'MemberRoleChanged': {
          const workspace = await workspacesOf(store).findOne({ _id: workspaceId });
          const { userId, role } = event.data;
          await guardedUpdate(
            membershipsOf(store),
            membershipId(workspaceId, userId),
            at,
            { $set: { workspaceId, slug: workspace?.slug ?? '', userId, role, active: true } },
            { upsert: true },
          );
          return;
        }
        case 'MemberRemoved':
          await guardedUpdate(
            membershipsOf(store),
            membershipId(workspaceId, event.data.userId),
            at,
            {
              $set: { active: false },
            },
          );
          return;
        default: {
          const _exhaustive: never = event;
        }
      }
    },
  };
}
