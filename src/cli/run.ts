/** Dispatch one command line to its command (kept apart from main.ts so tests can call it). */
import { asksForHelp, parseFlags } from './args.js';
import type { CliEnv } from './command.js';
import { CLI } from './verbs/help.js';
import { cliCommands } from './verbs/index.js';
import { UsageError } from './errors.js';

export async function runCli(argv: readonly string[], env: CliEnv): Promise<void> {
  const [name = 'help', ...rest] = argv;
  const commands = cliCommands();
  const asHelp = name === '--help' || name === '-h';
  const command = commands.find((c) => c.name === name || (asHelp && c.name === 'help'));
  if (!command) {
    throw new UsageError(`unknown command "${name}"; run \`${CLI} help\` to list the commands`);
  }
  // `<command> --help` (or -h, in place of any of its flags): that command's usage, nothing run
  if (asksForHelp(rest)) {
    env.out(
      `${CLI} ${command.name}${command.usage ? ` ${command.usage}` : ''}\n  ${command.summary}`,
    );
    return;
  }
  await command.run(parseFlags(rest, command.flags), env);
}
