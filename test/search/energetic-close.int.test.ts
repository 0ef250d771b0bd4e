/**
 * The bundled encoder keeps its weights as TF.js tensors in WebAssembly memory, which garbage
 * collection never reclaims and which only grows. The process's embedder thread loads a provider
 * for each embedder and drops it on close; without freeing the tensors there, a thread that
 * loaded the model ~80 times ran out of memory ("memory access out of bounds") — the test
 * suite's embedders did. Rule (src/search/embedder.ts): `close()` "frees what the model holds
 * outside the JavaScript heap". Measured in a child process (support/energetic-close-child.ts).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'chai';

describe('Closing the bundled encoder', function () {
  this.timeout(60_000);

  it('gives back the memory its weights took', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--import',
      'tsx',
      'test/search/support/energetic-close-child.ts',
    ]);
    const { before, loaded, after } = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(loaded - before, 'the weights are tensors').to.be.above(10_000_000);
    expect(after).to.equal(before);
  });
});
