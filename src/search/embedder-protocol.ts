/** Messages between the main thread and the process's embedder thread (embedder-thread.ts). */
import type { TransformersOptions } from './transformers-embedder.js';

/** `key` names one loaded provider in the thread (one per startEmbedderThread call). */
export type ToEmbedder =
  | { kind: 'load'; id: number; key: number; options: TransformersOptions }
  | { kind: 'embed'; id: number; key: number; texts: string[] }
  | { kind: 'drop'; key: number };

export type FromEmbedder =
  | {
      kind: 'log';
      key: number;
      level: 'info' | 'warn';
      message: string;
      fields?: Record<string, unknown>;
    }
  | { kind: 'loaded'; id: number; provider: string; dimensions: number; maxChars?: number }
  | { kind: 'vectors'; id: number; vectors: Float32Array[] }
  | { kind: 'failed'; id: number; message: string };
