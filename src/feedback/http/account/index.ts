/** The caller's own account: personal API tokens and connected OAuth apps. */
import type { FeedbackHttpDeps, FeedbackOperation } from '../types.js';
import { type ConnectedAppsPort, connectedAppOperations } from './apps.js';
import { tokenOperations } from './tokens.js';

export type { ConnectedAppsPort };

export interface AccountHttpDeps extends FeedbackHttpDeps {
  apps: ConnectedAppsPort;
  /** resolves once the read models hold every event logged before the call (ServiceContext) */
  catchUp(): Promise<void>;
}

export function accountOperations(deps: AccountHttpDeps): FeedbackOperation[] {
  return [...tokenOperations(deps), ...connectedAppOperations(deps)];
}
