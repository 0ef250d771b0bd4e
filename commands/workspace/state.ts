import type { MemberRole, WorkspaceEvent } from './events.js';

export type WorkspaceState =
  | { status: 'absent' }
  | {
      status: 'active';
      workspaceId: string;
      name: string;
      slug: string;
      /** userId -> role */
      members: Record<string, MemberRole>;
    };

export const initialWorkspaceState = (): WorkspaceState => ({ status: 'absent' });

export function evolveWorkspace(state: WorkspaceState, event: WorkspaceEvent): WorkspaceState {
  if (event.type === 'WorkspaceCreated') return { status: 'active', ...event.data, members: {} };
  if (state.status !== 'active') return state;
  switch (event.type) {
    case 'MemberAdded':
    case 'MemberRoleChanged':
      return { ...state, members: { ...state.members, [event.data.userId]: event.data.role } };
    case 'MemberRemoved': {
      const { [event.data.userId]: _removed, ...members } = state.members;
      return { ...state, members };
    }
    default: {
      const _exhaustive: never = event;
      return state;
    }
  }
}
