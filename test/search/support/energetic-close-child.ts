/**
 * Run as a child process by energetic-close.int.test.ts: TF.js's WebAssembly runtime installs
 * process-wide handlers that rethrow any uncaught exception, which must not reach the mocha
 * process. Prints TF.js's tensor bytes before a second load, after it, and after its close().
 */
import * as tf from '@energetic-ai/core';
import { loadEnergeticEmbedder } from '../../../src/search/energetic-embedder.js';

/** TF.js's memory(), which the package exports but does not declare */
const memory = (tf as unknown as { memory(): { numBytes: number } }).memory;

async function main(): Promise<void> {
  await loadEnergeticEmbedder(); // TF.js's backend is ready once one loaded
  const before = memory().numBytes;
  const embedder = await loadEnergeticEmbedder();
  await embedder.embed(['warm it up']);
  const loaded = memory().numBytes;
  await embedder.close?.();
  process.stdout.write(`${JSON.stringify({ before, loaded, after: memory().numBytes })}\n`);
  process.exit(0);
}

void main();
