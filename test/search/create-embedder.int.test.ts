import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { createEmbedder, lazyEmbedder, startEmbedder } from '../../src/search/create-embedder.js';
import { ENERGETIC_PROVIDER } from '../../src/search/energetic-embedder.js';
import {
  DEFAULT_TRANSFORMERS_MODEL,
  loadTransformersEmbedder,
} from '../../src/search/transformers-embedder.js';
import { writeTinyBertModel } from './support/tiny-onnx-model.js';

interface Entry {
  message: string;
  fields?: Record<string, unknown>;
}
function recordingLogger() {
  const entries: Entry[] = [];
  return {
    entries,
    info: (message: string, fields?: Record<string, unknown>) => entries.push({ message, fields }),
    warn: (message: string, fields?: Record<string, unknown>) => entries.push({ message, fields }),
  };
}
const norm = (v: Float32Array) => Math.hypot(...v);

describe('Embedder selection', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'search-embedder-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  describe('When the model folder holds a transformers.js model', () => {
    // DESIGN.md "Search": the primary provider is transformers.js, loaded from a local model folder
    it('serves with transformers.js, the model’s dimension and unit-length vectors', async () => {
      const hidden = writeTinyBertModel(dir, DEFAULT_TRANSFORMERS_MODEL, 24);
      const logger = recordingLogger();
      const embedder = await createEmbedder({ modelDir: dir, logger });
      expect(embedder.provider).to.equal('transformers:all-MiniLM-L6-v2');
      expect(embedder.dimensions).to.equal(hidden);
      const vectors = await embedder.embed([
        'please add dark mode',
        'night theme',
        'words the vocab lacks',
      ]);
      expect(vectors).to.have.length(3);
      for (const v of vectors) {
        expect(v).to.be.instanceOf(Float32Array);
        expect(v.length).to.equal(hidden);
        expect(norm(v)).to.be.closeTo(1, 1e-5);
      }
      expect(vectors[0]).to.not.deep.equal(vectors[1]);
      expect(logger.entries[0].fields).to.include({ provider: 'transformers:all-MiniLM-L6-v2' });
    });

    it('reads a quantized model file when there is one, as transformers.js does by default', async () => {
      writeTinyBertModel(dir, 'acme/tiny-bert', 8);
      const onnx = join(dir, 'acme/tiny-bert/onnx');
      renameSync(join(onnx, 'model.onnx'), join(onnx, 'model_quantized.onnx'));
      const embedder = await loadTransformersEmbedder({ modelDir: dir, modelId: 'acme/tiny-bert' });
      expect(embedder.provider).to.equal('transformers:tiny-bert');
      expect((await embedder.embed(['dark']))[0].length).to.equal(8);
    });
  });

  describe('When the model folder is empty', () => {
    // DESIGN.md "Search": where that model cannot be loaded, the bundled offline encoder serves
    // instead, and the service says which one it uses in its logs
    it('falls back to the bundled encoder and logs why', async () => {
      const logger = recordingLogger();
      const embedder = await createEmbedder({ modelDir: dir, logger });
      expect(embedder.provider).to.equal(ENERGETIC_PROVIDER);
      expect(embedder.dimensions).to.equal(512);
      const [vector] = await embedder.embed(['please add a night theme']);
      expect(vector.length).to.equal(512);
      expect(norm(vector)).to.be.closeTo(1, 1e-5);
      const ready = logger.entries.find((e) => e.message.includes('fallback'));
      expect(ready?.fields?.provider).to.equal(ENERGETIC_PROVIDER);
      expect(String(ready?.fields?.fallbackReason)).to.match(/missing config\.json/);
    });

    it('reports loading, then the serving provider, for the health output', async () => {
      const handle = startEmbedder({ modelDir: dir, logger: recordingLogger() });
      expect(handle.status()).to.deep.equal({ state: 'loading' });
      const embedder = await handle.get();
      expect(handle.status()).to.deep.equal({
        state: 'ready',
        provider: embedder.provider,
        dimensions: 512,
      });
      await handle.close();
    });
  });

  describe('When the model file is corrupt', () => {
    it('falls back instead of failing the service', async () => {
      writeTinyBertModel(dir, DEFAULT_TRANSFORMERS_MODEL);
      writeFileSync(join(dir, DEFAULT_TRANSFORMERS_MODEL, 'onnx', 'model.onnx'), 'not a model');
      // transformers.js and onnxruntime print the parse failure themselves; keep test output clean
      const { error, warn } = console;
      console.error = console.warn = () => {};
      const embedder = await createEmbedder({ modelDir: dir, logger: recordingLogger() }).finally(
        () => {
          console.error = error;
          console.warn = warn;
        },
      );
      expect(embedder.provider).to.equal(ENERGETIC_PROVIDER);
    });
  });

  describe('When a process shares one lazy embedder between its services', () => {
    it('loads nothing until the first get(), then loads once for every caller', async () => {
      writeTinyBertModel(dir, DEFAULT_TRANSFORMERS_MODEL, 8);
      const logger = recordingLogger();
      const handle = lazyEmbedder({ modelDir: dir, logger });
      expect(handle.status()).to.deep.equal({ state: 'not-started' });
      expect(logger.entries).to.have.length(0);
      const [a, b] = await Promise.all([handle.get(), handle.get()]);
      expect(a).to.equal(b);
      expect(handle.status()).to.include({ state: 'ready', dimensions: 8 });
      expect(
        logger.entries.filter((e) => e.message.startsWith('search embedder ready')),
      ).to.have.length(1);
      await handle.close();
    });
  });
});
