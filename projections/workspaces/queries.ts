import type { MemberRole } from '../../commands/workspace/index.js';
import type { ReadStore } from '../../src/readstore/types.js';
import { type MembershipDoc, membershipsOf, type WorkspaceDoc, workspacesOf } from './projector.js';

export function workspaceBySlug(store: ReadStore, slug: string): Promise<WorkspaceDoc | null> {
  return workspacesOf(store).findOne({ slug });
}

export function workspaceById(store: ReadStore, workspaceId: string): Promise<WorkspaceDoc | null> {
  return workspacesOf(store).findOne({ _id: workspaceId });
}

/**
 * The caller's live membership of the workspace at `slug`, or null — for an unknown slug and a
 * non-member alike, so the HTTP layer answers both with the same 404.
 */
export async function membershipBySlug(
  store: ReadStore,
  query: { slug: string; userId: string },
): Promise<{ workspace: WorkspaceDoc; role: MemberRole } | null> {
  const membership = await membershipsOf(store).findOne({ ...query, active: true });
  if (!membership) return null;
  const workspace = await workspaceById(store, membership.workspaceId);
  return workspace ? { workspace, role: membership.role } : null;
}

export function membershipsOfUser(store: ReadStore, userId: string): Promise<MembershipDoc[]> {
  return membershipsOf(store).find({ userId, active: true }, { sort: { slug: 1 } });
}

export function membersOfWorkspace(
  store: ReadStore,
  workspaceId: string,
): Promise<MembershipDoc[]> {
  return membershipsOf(store).find({ workspaceId, active: true }, { sort: { userId: 1 } });
}
