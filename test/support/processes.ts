/** The real entry point (`npm start`, src/processes/all.ts) as a child process on a data directory. */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { WIDE_CAPTURE_LIMITS } from './runtime.js';

export function startProcess(
  dir: string,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/processes/all.ts'], {
    env: {
      ...process.env,
      DATA_DIR: dir,
      FEEDBACK_PORT: '0',
      NOTES_PORT: '0',
      LOG_LEVEL: 'error',
      DEV_MODE: 'true',
      ...WIDE_CAPTURE_LIMITS,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no start within 30 s: ${out}`)), 30_000);
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const url = /feedback: (http:\/\/\S+)/.exec(out)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ child, url });
      }
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code} before listening: ${out}`)));
  });
}

/** One process entry point (`src/processes/*.ts`), ready once its output matches `ready`. */
export function startScript(
  script: string,
  env: Record<string, string>,
  ready: RegExp,
): Promise<ChildProcess & { output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, ...WIDE_CAPTURE_LIMITS, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    // a process that never got ready is killed, not left running past the test
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} not ready:\n${out}`));
    }, 60_000);
    const seen = (chunk: Buffer) => {
      out += chunk;
      Object.assign(child, { output: out });
      if (ready.test(out)) {
        clearTimeout(timer);
        resolve(Object.assign(child, { output: out }));
      }
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}:\n${out}`)));
  });
}

/** The admin CLI (`npm run cli`), resolving with what it printed. */
export function runCli(env: Record<string, string>, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', ...args],
      { env: { ...process.env, ...env }, timeout: 60_000 },
      (error, stdout, stderr) =>
        error ? reject(new Error(stderr || String(error))) : resolve(stdout),
    );
  });
}

/** The line an API process logs once its feedback service listens (pino JSON). */
export const FEEDBACK_LISTENING = /"url":"(http[^"]+)","msg":"feedback service listening"/;

/** The line every process logs once its role is fully started (src/platform/runtime.ts). */
export const STARTED = /"msg":"started"/;

/**
 * A maker, a workspace and a public product APP made with the admin CLI (as an operator of a
 * deployment would); resolves with the maker's personal API token.
 */
export async function seedWithCli(
  env: Record<string, string>,
  board: { email: string; slug: string },
): Promise<string> {
  const { email, slug } = board;
  await runCli(env, 'create-user', '--email', email, '--name', 'Max');
  await runCli(env, 'create-workspace', '--slug', slug, '--name', slug, '--owner', email);
  await runCli(
    env,
    'create-product',
    ...['--workspace', slug, '--key', 'APP', '--name', 'App', '--visibility', 'public'],
  );
  const printed = await runCli(env, 'create-token', '--email', email, '--name', 'ci');
  return printed.split('\n').find((line) => line.startsWith('rft_service_'))!;
}
