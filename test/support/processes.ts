/** The real entry point (`npm start`, src/processes/all.ts) as a child process on a data directory. */
import { type ChildProcess, spawn } from 'node:child_process';

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
