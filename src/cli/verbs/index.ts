/** Every CLI command, in the order `help` lists them. */
import type { CliCommand } from '../command.js';
import {
  addMemberCommand,
  createUserCommand,
  createWorkspaceCommand,
  removeMemberCommand,
} from './accounts.js';
import { configCommand, helpCommand } from './help.js';
import { importItemsCommand } from './import.js';
import { createProductCommand } from './products.js';
import { rebuildCommand } from './rebuild.js';
import { createTokenCommand, revokeTokenCommand } from './tokens.js';
import { exportCommand, importWorkspaceCommand, verifyCommand } from './transfer.js';

export function cliCommands(): CliCommand[] {
  const commands: CliCommand[] = [
    createUserCommand,
    createWorkspaceCommand,
    addMemberCommand,
    removeMemberCommand,
    createProductCommand,
    createTokenCommand,
    revokeTokenCommand,
    importItemsCommand,
    rebuildCommand,
    exportCommand,
    importWorkspaceCommand,
    verifyCommand,
    configCommand,
  ];
  return [helpCommand(() => commands), ...commands];
}
