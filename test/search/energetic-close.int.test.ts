/**
 * The bundled encoder keeps its weights as TF.js tensors in WebAssembly memory, which garbage
 * collection never reclaims and which only grows. The process's embedder thread loads a provider
 * for each embedder and drops it on close; without freeing the tensors there, a thread that
 * loaded the model ~80 times ran out of memory ("memory access out of bounds") — the test
 * suite's embedders did. Rule (src/search/embedder.ts): `close()` "frees what the model holds
 * outside the JavaScript heap".
 */
import * as tf from '@energetic-ai/core';
import { expect } from 'chai';
import { loadEnergeticEmbedder } from '../../src/search/energetic-embedder.js';

/** TF.js's memory(), which the package exports but does not declare */
const memory = (tf as unknown as { memory(): { numBytes: number } }).memory;

describe('Closing the bundled encoder', function () {
  this.timeout(60_000);

  it('gives back the memory its weights took', async () => {
    const first = await loadEnergeticEmbedder(); // TF.js's backend is ready once one loaded
    const before = memory().numBytes;
    const embedder = await loadEnergeticEmbedder();
    await embedder.embed(['warm it up']);
    const loaded = memory().numBytes;
    expect(loaded - before, 'the weights are tensors').to.be.above(10_000_000);
    await embedder.close?.();
    expect(memory().numBytes).to.equal(before);
    await first.close?.();
  });
});
