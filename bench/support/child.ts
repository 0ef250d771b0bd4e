/** Child processes of bench:api: start one, wait for the line that says it is ready. */
import { type ChildProcess, spawn } from 'node:child_process';

export interface Child {
  process: ChildProcess;
  /** everything it printed, for the error message when it fails */
  output(): string;
  stop(): Promise<void>;
}

export function startChild(
  script: string,
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  timeoutMs = 120_000,
): Promise<{ child: Child; match: RegExpMatchArray }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const child: Child = {
    process: proc,
    output: () => out,
    stop: () =>
      new Promise((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
        setTimeout(() => proc.kill('SIGKILL'), 5_000).unref();
      }),
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void child.stop();
      reject(new Error(`${script} was not ready within ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = out.match(ready);
      if (match) {
        clearTimeout(timer);
        resolve({ child, match });
      }
    };
    // readiness may be printed on either stream (the logger writes to stderr)
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with code ${code} before it was ready:\n${out}`));
    });
  });
}

/** Run a child to completion and return its stdout. */
export function runChild(script: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    proc.once('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${script} exited with code ${code}`)),
    );
  });
}
