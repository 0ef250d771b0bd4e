/**
 * Starting a worker thread on one of this project's modules, compiled or not. Under tsx (tests,
 * `npm start`) the module is TypeScript and the worker must load it through tsx's API: worker
 * threads do not inherit tsx's loader for their entry file. Compiled, it is plain JS.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type ResourceLimits, Worker } from 'node:worker_threads';

/**
 * `moduleName` is the entry's file name without extension, resolved next to `callerUrl`
 * (the caller's `import.meta.url`).
 */
export function spawnModuleThread(
  callerUrl: string,
  moduleName: string,
  workerData: unknown,
  resourceLimits?: ResourceLimits,
): Worker {
  const isTypeScript = callerUrl.endsWith('.ts');
  const entry = new URL(`./${moduleName}${isTypeScript ? '.ts' : '.js'}`, callerUrl);
  if (!isTypeScript) return new Worker(entry, { workerData, resourceLimits });
  // tsx's CommonJS API: resolvable both when the caller is loaded as ESM (tsx CLI) and as CJS (mocha).
  const api = createRequire(callerUrl).resolve('tsx/cjs/api');
  const file = fileURLToPath(entry);
  const bootstrap = `require(${JSON.stringify(api)}).require(${JSON.stringify(file)}, ${JSON.stringify(file)});`;
  return new Worker(bootstrap, { eval: true, workerData, resourceLimits });
}

/**
 * A child process on one of this project's modules, with an IPC channel that carries typed
 * arrays (structured clone). Under tsx the child loads tsx's loader first, as the worker above.
 * A process, not a thread, where the work's memory must all go back when it ends.
 */
export function forkModule(callerUrl: string, moduleName: string): ChildProcess {
  const isTypeScript = callerUrl.endsWith('.ts');
  const entry = fileURLToPath(new URL(`./${moduleName}${isTypeScript ? '.ts' : '.js'}`, callerUrl));
  const loader = isTypeScript
    ? ['--import', pathToFileURL(createRequire(callerUrl).resolve('tsx')).href]
    : [];
  return fork(entry, [], {
    execArgv: loader,
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
}
