import type { Decider } from '../shared/decider.js';
import { decideWorkspace, type WorkspaceCommand } from './decide.js';
import type { WorkspaceEvent } from './events.js';
import { evolveWorkspace, initialWorkspaceState, type WorkspaceState } from './state.js';

export * from './decide.js';
export * from './events.js';
export * from './state.js';

export const workspaceDecider: Decider<WorkspaceState, WorkspaceCommand, WorkspaceEvent> = {
  initialState: initialWorkspaceState,
  evolve: evolveWorkspace,
  decide: decideWorkspace,
};

export const workspaceStreamId = (workspaceId: string): string => `workspace-${workspaceId}`;
