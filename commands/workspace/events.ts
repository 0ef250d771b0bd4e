import { z } from 'zod';
import type { DomainEvent } from '../shared/decider.js';

export const MemberRole = z.enum(['admin', 'member']);
export type MemberRole = z.infer<typeof MemberRole>;

export const WorkspaceCreatedData = z.object({
  workspaceId: z.string().min(1),
  name: z.string().min(1).max(200),
  slug: z.string().min(5).max(20),
});
export const MemberAddedData = z.object({ userId: z.string().min(1), role: MemberRole });
export const MemberRoleChangedData = z.object({ userId: z.string().min(1), role: MemberRole });
export const MemberRemovedData = z.object({ userId: z.string().min(1) });

type Data<S extends z.ZodType> = z.infer<S>;
export type WorkspaceCreated = DomainEvent<'WorkspaceCreated', Data<typeof WorkspaceCreatedData>>;
export type MemberAdded = DomainEvent<'MemberAdded', Data<typeof MemberAddedData>>;
export type MemberRoleChanged = DomainEvent<
  'MemberRoleChanged',
  Data<typeof MemberRoleChangedData>
>;
export type MemberRemoved = DomainEvent<'MemberRemoved', Data<typeof MemberRemovedData>>;

export type WorkspaceEvent = WorkspaceCreated | MemberAdded | MemberRoleChanged | MemberRemoved;

export const workspaceEventSchemas = {
  WorkspaceCreated: WorkspaceCreatedData,
  MemberAdded: MemberAddedData,
  MemberRoleChanged: MemberRoleChangedData,
  MemberRemoved: MemberRemovedData,
} as const;
