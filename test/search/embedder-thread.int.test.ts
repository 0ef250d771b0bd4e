/**
 * The embedder runs in a thread of its own (src/search/embedder-thread.ts): embedding is tens of
 * milliseconds of CPU per batch, and on the main thread every HTTP request of the process waited
 * behind it. These tests hold the thread to the same answers as the provider run in-thread, and
 * show the main thread's event loop keeps turning while a batch is embedded.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { createEmbedder, startEmbedder } from '../../src/search/create-embedder.js';
import type { Embedder } from '../../src/search/embedder.js';
import { ENERGETIC_PROVIDER } from '../../src/search/energetic-embedder.js';
import { DEFAULT_TRANSFORMERS_MODEL } from '../../src/search/transformers-embedder.js';
import { writeTinyBertModel } from './support/tiny-onnx-model.js';

const quiet = { info() {}, warn() {} };
const TEXTS = Array.from(
  { length: 96 },
  (_, i) => `feedback item ${i}: the export to CSV drops the ${i % 7}th column on large boards`,
);

/** The longest the event loop went without running a 2 ms interval while `work` ran. */
async function longestStall(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 2);
  try {
    await work();
    longest = Math.max(longest, performance.now() - last);
  } finally {
    clearInterval(timer);
  }
  return longest;
}

describe('Embedder thread', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'embedder-thread-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  describe('When the thread serves a transformers.js model', () => {
    it('answers the same vectors as the provider run on the calling thread', async () => {
      writeTinyBertModel(dir, DEFAULT_TRANSFORMERS_MODEL, 16);
      const handle = startEmbedder({ modelDir: dir, logger: quiet });
      try {
        const threaded = await handle.get();
        const local = await createEmbedder({ modelDir: dir, logger: quiet });
        expect(threaded.provider)
          .to.equal(local.provider)
          .and.to.equal('transformers:all-MiniLM-L6-v2');
        expect(threaded.dimensions).to.equal(16);
        const texts = TEXTS.slice(0, 40);
        const [a, b] = [await threaded.embed(texts), await local.embed(texts)];
        expect(a).to.have.length(texts.length);
        for (const [i, vector] of a.entries()) {
          expect(vector).to.be.instanceOf(Float32Array);
          expect([...vector]).to.deep.equal([...b[i]!]);
        }
        expect(await threaded.embed([])).to.deep.equal([]);
      } finally {
        await handle.close();
      }
    });
  });

  describe('When a batch is embedded', () => {
    it('keeps the main thread free: its event loop stalls far less than with the provider in-thread', async function () {
      this.timeout(60_000);
      const handle = startEmbedder({ modelDir: dir, logger: quiet }); // empty folder: bundled encoder
      try {
        const threaded = await handle.get();
        const local: Embedder = await createEmbedder({ modelDir: dir, logger: quiet });
        expect(threaded.provider).to.equal(ENERGETIC_PROVIDER);
        await threaded.embed(TEXTS.slice(0, 4)); // warm both
        await local.embed(TEXTS.slice(0, 4));
        const inThread = await longestStall(() => local.embed(TEXTS));
        const offThread = await longestStall(() => threaded.embed(TEXTS));
        expect(inThread, 'the in-thread provider blocks the loop per chunk').to.be.greaterThan(40);
        expect(offThread).to.be.lessThan(inThread / 2);
      } finally {
        await handle.close();
      }
    });
  });

  describe('When the embedder is closed', () => {
    it('rejects embeds after it, and the next embedder of the process still loads', async () => {
      writeTinyBertModel(dir, DEFAULT_TRANSFORMERS_MODEL, 8);
      const handle = startEmbedder({ modelDir: dir, logger: quiet });
      const embedder = await handle.get();
      expect(await embedder.embed(['one'])).to.have.length(1);
      await handle.close();
      let later: unknown;
      try {
        await embedder.embed(['two']);
      } catch (error) {
        later = error;
      }
      expect(String(later)).to.match(/closed/);
      // onnxruntime cannot be loaded twice in a process: the thread (and its binding) lives on
      const next = startEmbedder({ modelDir: dir, logger: quiet });
      try {
        const again = await next.get();
        expect(again.provider).to.equal('transformers:all-MiniLM-L6-v2');
        expect(await again.embed(['three'])).to.have.length(1);
      } finally {
        await next.close();
      }
    });
  });

  describe('When an indexing embed is aborted (a stopping indexer)', () => {
    // src/search/embedder.ts EmbedOptions.signal: "the embedder thread drops the call's units it
    // has not started": the thread is not kept busy with a batch nobody waits for
    it('rejects at once and the work queued after it waits for one unit, not for the aborted batch', async () => {
      writeTinyBertModel(dir, DEFAULT_TRANSFORMERS_MODEL, 8);
      const handle = startEmbedder({ modelDir: dir, logger: quiet });
      try {
        const embedder = await handle.get();
        const backlog = Array.from({ length: 200 }, () => TEXTS)
          .flat()
          .slice(0, 1_600);
        let started = performance.now();
        await embedder.embed(backlog);
        const wholeBacklogMs = performance.now() - started;

        const aborting = new AbortController();
        const abandoned = embedder.embed(backlog, { signal: aborting.signal });
        const next = embedder.embed(TEXTS.slice(0, 4));
        started = performance.now();
        aborting.abort(new Error('stopped'));
        const outcome = await abandoned.then(
          () => 'resolved',
          (error: Error) => error.message,
        );
        expect(outcome).to.equal('stopped');
        await next;
        const nextMs = performance.now() - started;
        expect(nextMs, `the whole backlog took ${Math.round(wholeBacklogMs)} ms`).to.be.below(
          wholeBacklogMs / 4,
        );
      } finally {
        await handle.close();
      }
    });
  });
});
