/**
 * Starting a worker thread on one of this project's modules, compiled or not. Under tsx (tests,
 * `npm start`) the module is TypeScript and the worker must load it through tsx's API: worker
 * threads do not inherit tsx's loader for their entry file. Compiled, it is plain JS.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
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
