/** A process entry point (`src/processes/*.ts`) run to its exit, as an operator starts it. */
import { spawn } from 'node:child_process';

export interface Exit {
  code: number | null;
  stderr: string;
}

export function runToExit(
  env: Record<string, string>,
  options: { script?: string; args?: string[]; uid?: number; gid?: number } = {},
): Promise<Exit> {
  const { script = 'src/processes/all.ts', args = [], uid, gid } = options;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      env: {
        ...process.env,
        FEEDBACK_PORT: '0',
        NOTES_PORT: '0',
        LOG_LEVEL: 'error',
        DEV_MODE: 'true',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(uid === undefined ? {} : { uid, gid }),
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    // a process that started instead of refusing is stopped here: its exit code is then null
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

/** stderr lines of ours: oidc-provider warns about the Node.js version on its own */
export const ours = (stderr: string) =>
  stderr.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('oidc-provider WARNING'));

/** The one line a refused start prints (and that it printed exactly one, with exit code 1). */
export function refusal({ code, stderr }: Exit): string {
  if (code !== 1) throw new Error(`exit code ${code}, not 1; stderr:\n${stderr}`);
  const lines = ours(stderr);
  if (lines.length !== 1) throw new Error(`${lines.length} lines, not 1:\n${stderr}`);
  return lines[0]!;
}
