/**
 * Issue 14: "Faster indexing: batch texts to the embedder, keep the embedder thread saturated".
 * The bundled encoder runs single-threaded, so a backlog's batch (≥ SPLIT_MIN texts) is split
 * between the process's embedder thread and a helper process on another core
 * (src/search/bulk-helper.ts). These tests hold the split to the answers one thread gives, show
 * the helper starts only for such batches and only for the bundled encoder, and that its
 * process exits when it is let go.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import {
  helperProcess,
  resetHelperFailure,
  SPLIT_MIN,
  splitPoint,
  stopHelper,
} from '../../src/search/bulk-helper.js';
import { startEmbedder } from '../../src/search/create-embedder.js';
import { ENERGETIC_CHUNK, ENERGETIC_PROVIDER } from '../../src/search/energetic-embedder.js';
import { DEFAULT_TRANSFORMERS_MODEL } from '../../src/search/transformers-embedder.js';
import { writeTinyBertModel } from './support/tiny-onnx-model.js';

const quiet = { info() {}, warn() {} };
const TEXTS = Array.from(
  { length: 40 },
  (_, i) => `item ${i}: ${['dark mode', 'csv export', 'slow sync', 'sso login'][i % 4]} request`,
);

describe('Bulk embedding on a second core', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'bulk-helper-'));
    stopHelper();
    resetHelperFailure();
  });
  afterEach(() => {
    stopHelper();
    rmSync(dir, { recursive: true, force: true });
  });

  it('cuts a batch at a chunk boundary near its middle', () => {
    expect(splitPoint(64)).to.equal(32);
    expect(splitPoint(40)).to.equal(24);
    expect(splitPoint(33)).to.equal(24);
    for (const n of [32, 40, 57, 64, 100]) {
      expect(splitPoint(n) % ENERGETIC_CHUNK).to.equal(0);
      expect(splitPoint(n)).to.be.within(n / 2, n - 1);
    }
  });

  describe('When the bundled encoder gets a backlog batch', () => {
    it('answers exactly the vectors one thread gives, in order, with half of it on the helper', async () => {
      const handle = startEmbedder({ modelDir: dir, logger: quiet }); // empty folder: bundled
      try {
        const embedder = await handle.get();
        expect(embedder.provider).to.equal(ENERGETIC_PROVIDER);
        // below SPLIT_MIN: one thread, no helper
        const single: Float32Array[] = [];
        for (let at = 0; at < TEXTS.length; at += ENERGETIC_CHUNK) {
          single.push(...(await embedder.embed(TEXTS.slice(at, at + ENERGETIC_CHUNK))));
        }
        expect(helperProcess()).to.equal(undefined);
        expect(TEXTS.length).to.be.at.least(SPLIT_MIN);
        const split = await embedder.embed(TEXTS);
        const helper = helperProcess();
        expect(helper?.pid).to.be.a('number');
        expect(split).to.have.length(TEXTS.length);
        for (const [i, vector] of split.entries()) {
          expect([...vector], `text ${i}`).to.deep.equal([...single[i]!]);
        }
        // ended, its process exits and gives its memory back
        const exited = once(helper!, 'exit');
        stopHelper();
        expect(helperProcess()).to.equal(undefined);
        expect((await exited)[0]).to.equal(0);
        // the next backlog batch starts another helper
        expect(await embedder.embed(TEXTS)).to.have.length(TEXTS.length);
        expect(helperProcess()?.pid).to.be.a('number').and.not.equal(helper!.pid);
      } finally {
        await handle.close();
      }
    });
  });

  describe('When the helper process dies', () => {
    it('lets the embedder thread take whole batches for a while, then tries a helper again', async () => {
      const handle = startEmbedder({ modelDir: dir, logger: quiet });
      try {
        const embedder = await handle.get();
        const expected = await embedder.embed(TEXTS); // starts a helper
        const helper = helperProcess()!;
        const died = once(helper, 'exit');
        helper.kill('SIGKILL');
        await died;
        expect(helperProcess()).to.equal(undefined);
        // the same answers, all from the embedder thread, and no new process forked for it
        const again = await embedder.embed(TEXTS);
        expect(again.map((v) => [...v])).to.deep.equal(expected.map((v) => [...v]));
        expect(helperProcess()).to.equal(undefined);
        resetHelperFailure(); // what the cool-off's end does
        await embedder.embed(TEXTS);
        expect(helperProcess()?.pid).to.be.a('number').and.not.equal(helper.pid);
      } finally {
        await handle.close();
      }
    });
  });

  describe('When the provider is all-MiniLM-L6-v2 (onnxruntime)', () => {
    it('keeps to one thread: onnxruntime cannot be loaded again once a thread that had it ends', async () => {
      writeTinyBertModel(dir, DEFAULT_TRANSFORMERS_MODEL, 8);
      const handle = startEmbedder({ modelDir: dir, logger: quiet });
      try {
        const embedder = await handle.get();
        expect(embedder.provider).to.equal('transformers:all-MiniLM-L6-v2');
        expect(await embedder.embed(TEXTS)).to.have.length(TEXTS.length);
        expect(helperProcess()).to.equal(undefined);
      } finally {
        await handle.close();
      }
    });
  });

  describe('When its parent stops while it embeds a batch (the indexer abandons the batch)', () => {
    // src/search/embedder-child.ts: "the child ends quietly, instead of dying of EPIPE with a
    // stack trace on the stderr it shares with the stopped server"
    it('ends without a word on the stderr it shares with the parent', async () => {
      const parent = spawn(
        process.execPath,
        ['--import', 'tsx', new URL('./support/abandoning-parent.ts', import.meta.url).pathname],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      let stderr = '';
      parent.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      // the pipe closes when the helper, which inherited it, has ended too
      await once(parent.stderr, 'close');
      expect(stderr).to.equal('');
    });
  });
});
