/**
 * A deterministic bag-of-words embedder for fast unit tests of the index: each word hashes to
 * one of `dimensions` axes, so texts sharing words are close and texts sharing none score 0.
 * Counts every text it embeds, so tests can prove what was (not) re-embedded.
 */
import { type Embedder, normalize } from '../../../src/search/embedder.js';

export interface CountingEmbedder extends Embedder {
  embedded: string[];
}

export function fakeEmbedder(provider = 'fake:bag-of-words', dimensions = 64): CountingEmbedder {
  const embedded: string[] = [];
  const axis = (word: string) => {
    let h = 2166136261;
    for (const ch of word) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
    return (h >>> 0) % dimensions;
  };
  return {
    provider,
    dimensions,
    embedded,
    async embed(texts) {
      embedded.push(...texts);
      return texts.map((text) => {
        const vector = new Float32Array(dimensions);
        for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) vector[axis(word)] += 1;
        return normalize(vector);
      });
    },
  };
}
