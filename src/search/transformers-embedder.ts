/**
 * Primary provider: transformers.js (`@xenova/transformers`) running all-MiniLM-L6-v2
 * (384 dimensions) through onnxruntime-node, mean-pooled and normalised as the model card
 * prescribes. The model is read ONLY from disk — `modelDir` (or transformers.js' own cache
 * folder when none is given) laid out as `<root>/<modelId>/{config.json, tokenizer.json,
 * tokenizer_config.json, onnx/model_quantized.onnx | onnx/model.onnx}`, the layout of the
 * Hugging Face repo `Xenova/all-MiniLM-L6-v2`. Remote downloads are switched off: a missing
 * model is an EmbedderUnavailableError and create-embedder.ts falls back.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import {
  type Embedder,
  EmbedderUnavailableError,
  embeddablePrefix,
  MAX_EMBED_CHARS,
  normalize,
} from './embedder.js';

export const DEFAULT_TRANSFORMERS_MODEL = 'Xenova/all-MiniLM-L6-v2';
const CHUNK = 32;

export interface TransformersOptions {
  /** folder holding `<modelId>/…`; default: transformers.js' cache folder */
  modelDir?: string;
  /** repo-style id inside the folder; the provider name is `transformers:<last segment>` */
  modelId?: string;
}

interface Tensor {
  dims: number[];
  data: Float32Array;
}
type Extractor = (
  texts: string[],
  options: { pooling: 'mean'; normalize: boolean },
) => Promise<Tensor>;

/** transformers.js' own cache folder (`<package>/.cache/`), found without importing it. */
function defaultCacheDir(): string {
  const entry = createRequire(import.meta.url).resolve('@xenova/transformers');
  return join(dirname(dirname(entry)), '.cache');
}

export async function loadTransformersEmbedder(
  options: TransformersOptions = {},
): Promise<Embedder> {
  const modelId = options.modelId ?? DEFAULT_TRANSFORMERS_MODEL;
  const provider = `transformers:${basename(modelId)}`;
  const unavailable = (reason: string) => new EmbedderUnavailableError(provider, reason);

  // The model folder is checked BEFORE transformers.js is imported: importing it loads
  // onnxruntime-node and sharp (native libraries, tens of MB), which a process without the
  // model must not pay for (issue 10 item 18: idle memory).
  const root = options.modelDir ?? defaultCacheDir();
  const folder = join(root, modelId);
  const quantized = existsSync(join(folder, 'onnx', 'model_quantized.onnx'));
  const required = ['config.json', 'tokenizer.json', 'tokenizer_config.json'];
  const missing = required.filter((file) => !existsSync(join(folder, file)));
  if (!quantized && !existsSync(join(folder, 'onnx', 'model.onnx')))
    missing.push('onnx/model.onnx');
  if (missing.length > 0)
    throw unavailable(`no model at ${folder} (missing ${missing.join(', ')})`);

  let hidden: number;
  try {
    hidden = Number(JSON.parse(readFileSync(join(folder, 'config.json'), 'utf8')).hidden_size);
  } catch (error) {
    throw unavailable(`unreadable config.json: ${(error as Error).message}`);
  }

  let transformers: typeof import('@xenova/transformers');
  try {
    transformers = await import('@xenova/transformers');
  } catch (error) {
    throw unavailable(`@xenova/transformers did not load: ${(error as Error).message}`);
  }

  // transformers.js keeps its settings in one process-wide `env`; these writes only ever
  // narrow it to local files, so concurrent loads cannot reach the network through it.
  transformers.env.allowRemoteModels = false;
  transformers.env.allowLocalModels = true;
  transformers.env.localModelPath = root;

  let extract: Extractor;
  let dimensions: number;
  try {
    extract = (await transformers.pipeline('feature-extraction', modelId, {
      quantized,
      local_files_only: true,
    })) as unknown as Extractor;
    // One probe run so a model that loads but cannot run also falls back, at start-up.
    const probe = await extract(['probe'], { pooling: 'mean', normalize: true });
    dimensions = probe.dims[probe.dims.length - 1];
  } catch (error) {
    throw unavailable(`model did not run: ${(error as Error).message}`);
  }
  if (Number.isFinite(hidden) && hidden !== dimensions) {
    throw unavailable(`config.json says ${hidden} dimensions, the model gives ${dimensions}`);
  }

  return {
    provider,
    dimensions,
    maxChars: MAX_EMBED_CHARS,
    async embed(texts) {
      const vectors: Float32Array[] = [];
      // Chunks bound the padded batch tensor (every text is padded to the longest in its batch).
      for (let start = 0; start < texts.length; start += CHUNK) {
        // the model reads 512 tokens: the prefix holds them (embedder.ts), and the tokenizer no
        // longer splits a whole 100 KB text only to drop most of it
        const chunk = texts.slice(start, start + CHUNK).map((text) => embeddablePrefix(text));
        const output = await extract(chunk, { pooling: 'mean', normalize: true });
        for (let row = 0; row < chunk.length; row++) {
          vectors.push(normalize(output.data.slice(row * dimensions, (row + 1) * dimensions)));
        }
      }
      return vectors;
    },
  };
}
