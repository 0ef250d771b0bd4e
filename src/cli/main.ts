/**
 * `npm run cli -- <command> [--flag value ...]`: the admin CLI. Every failure is one line on
 * stderr and exit code 1, never a stack trace (set LOG_LEVEL=debug to see one for a bug); a
 * reader that stops reading early ends no command (output.ts).
 */
import { checkDataDir } from '../config/data-dir.js';
import { loadConfig } from '../config/load.js';
import type { Config } from '../config/schema.js';
import type { CliEnv } from './command.js';
import { oneLine } from './errors.js';
import { outputTo } from './output.js';
import { terminalProgress } from './progress.js';
import { runCli } from './run.js';

async function main(): Promise<void> {
  const stdout = outputTo(process.stdout);
  // console.error's lines too: `2>&1 | head -1` closes stderr's reader as well
  outputTo(process.stderr);
  let config: Config | undefined;
  const env: CliEnv = {
    config: (access) => {
      config ??= loadConfig();
      // the CLI keeps nothing in DATA_DIR but the embedded stores
      if (!config.EVENTSTORE_URL || !config.MONGODB_URL) checkDataDir(config.DATA_DIR, access);
      return config;
    },
    out: stdout.line,
    ...(process.stderr.isTTY ? { progress: terminalProgress(process.stderr) } : {}),
  };
  try {
    await runCli(process.argv.slice(2), env);
    const failure = stdout.failure();
    if (failure) throw failure;
    process.exitCode = 0;
  } catch (error) {
    console.error(oneLine(error));
    if (process.env.LOG_LEVEL === 'debug') console.error(error);
    process.exitCode = 1;
  }
}

await main();
