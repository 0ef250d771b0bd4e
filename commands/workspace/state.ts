import { Map as ImmutableMap } from 'immutable';
import type { MemberRole, WorkspaceEvent } from './events.js';

export type WorkspaceState =
  | { status: 'absent' }
  | {
      status: 'active';
      workspaceId: string;
      name: string;
      slug: string;
      /** userId -> role; persistent, as a member added must not copy every other one */
      members: ImmutableMap<string, MemberRole>;
    };

export const initialWorkspaceState = (): WorkspaceState => ({ status: 'absent' });

export function evolveWorkspace(state: WorkspaceState, event: WorkspaceEvent): WorkspaceState {
  if (event.type === 'WorkspaceCreated')
    return { status: 'active', ...event.data, members: ImmutableMap() };
  if (state.status !== 'active') return state;
  switch (event.type) {
    case 'MemberAdded':
    case 'MemberRoleChanged':
      return { ...state, members: state.members.set(event.data.userId, event.data.role) };
    case 'MemberRemoved':
      return { ...state, members: state.members.delete(event.data.userId) };
    default: {
      const _exhaustive: never = event;
      return state;
    }
  }
}
