import type { Map as ImmutableMap } from 'immutable';
import { WORKSPACE_SLUG } from '../product/keys.js';
import { AlreadyExists, FailedPrecondition, InvalidArgument, NotFound } from '../shared/errors.js';
import type { MemberRole, WorkspaceEvent } from './events.js';
import type { WorkspaceState } from './state.js';
import { nameText } from '../shared/text.js';

export type CreateWorkspace = {
  type: 'CreateWorkspace';
  data: { workspaceId: string; name: string; slug: string; ownerId: string };
};
export type AddMember = { type: 'AddMember'; data: { userId: string; role: MemberRole } };
export type ChangeMemberRole = {
  type: 'ChangeMemberRole';
  data: { userId: string; role: MemberRole };
};
export type RemoveMember = { type: 'RemoveMember'; data: { userId: string } };
export type WorkspaceCommand = CreateWorkspace | AddMember | ChangeMemberRole | RemoveMember;

export function decideWorkspace(
  command: WorkspaceCommand,
  state: WorkspaceState,
): WorkspaceEvent[] {
  if (command.type === 'CreateWorkspace') {
    if (state.status !== 'absent') throw new AlreadyExists('workspace already exists');
    const { workspaceId, slug, ownerId } = command.data;
    const name = command.data.name.trim();
    if (!WORKSPACE_SLUG.test(slug)) throw new InvalidArgument('slug is not a valid workspace slug');
    nameText(name, 'name', 200);
    return [
      { type: 'WorkspaceCreated', data: { workspaceId, name, slug } },
      // a workspace never exists without an admin who can manage it
      { type: 'MemberAdded', data: { userId: ownerId, role: 'admin' } },
    ];
  }
  if (state.status !== 'active') throw new NotFound('workspace not found');
  const current = state.members.get(command.data.userId);
  switch (command.type) {
    case 'AddMember':
      if (current === command.data.role) return [];
      if (current) throw new AlreadyExists(`user is already a ${current}; change the role instead`);
      return [{ type: 'MemberAdded', data: command.data }];
    case 'ChangeMemberRole':
      if (!current) throw new NotFound('member not found');
      if (current === command.data.role) return [];
      if (current === 'admin') guardLastAdmin(state.members);
      return [{ type: 'MemberRoleChanged', data: command.data }];
    case 'RemoveMember':
      if (!current) return [];
      if (current === 'admin') guardLastAdmin(state.members);
      return [{ type: 'MemberRemoved', data: command.data }];
    default: {
      const _exhaustive: never = command;
      return [];
    }
  }
}

function guardLastAdmin(members: ImmutableMap<string, MemberRole>): void {
  const admins = members.count((role) => role === 'admin');
  if (admins <= 1) throw new FailedPrecondition('a workspace must keep at least one admin');
}
