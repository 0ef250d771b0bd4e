/** help and config: the two commands that need no stores. */
import { configTable } from '../../config/load.js';
import type { CliCommand } from '../command.js';

export const CLI = 'npm run cli --';

export function usageText(commands: readonly CliCommand[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map(
    (c) =>
      `  ${c.name.padEnd(width)}  ${c.usage ? `${c.usage}\n  ${' '.repeat(width)}  ` : ''}${c.summary}`,
  );
  return [
    `Admin CLI of the feedback board. Usage: ${CLI} <command> [--flag value ...]`,
    'It opens the configured stores itself (DATA_DIR, or EVENTSTORE_URL / MONGODB_URL), so it',
    'works whether the server is running or not.',
    '',
    'Commands:',
    ...lines,
    '',
    'Getting started:',
    `  ${CLI} create-user --email max@example.com --name "Max"`,
    `  ${CLI} create-workspace --slug acme-co --name "Acme" --owner max@example.com`,
    `  ${CLI} create-product --workspace acme-co --key APP --name "Acme app"`,
    `  ${CLI} import-items --workspace acme-co --product APP --file examples/items.json`,
    `  ${CLI} create-token --email max@example.com --name laptop`,
  ].join('\n');
}

export function helpCommand(commands: () => readonly CliCommand[]): CliCommand {
  return {
    name: 'help',
    usage: '',
    summary: 'show this help',
    flags: [],
    async run(_flags, env) {
      env.out(usageText(commands()));
    },
  };
}

export const configCommand: CliCommand = {
  name: 'config',
  usage: '',
  summary: 'print every configuration key (environment variable) with its default and meaning',
  flags: [],
  async run(_flags, env) {
    env.out(configTable());
  },
};
