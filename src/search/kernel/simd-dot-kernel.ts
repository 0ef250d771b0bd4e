/**
 * The WebAssembly SIMD kernel: the arena's vectors live in the module's own memory and one
 * call scores them all, four float32 lanes at a time (f32x4.mul / f32x4.add, four independent
 * accumulators). The module is assembled per dimension, fully unrolled over the vector, so each
 * load has a constant offset. Memory layout (bytes):
 *   [0, S)               the query (S = stride · 4)
 *   [S, S + cap·S)       the vectors, slot after slot; grows in place as the arena grows
 *   [S + cap·S, … + cap·4) the scores of the last call (scratch, moves when capacity grows)
 */
import { grownCapacity } from './capacity.js';
import type { DotKernel } from './dot-kernel.js';
import { emitModule, op, valType } from './wasm-emitter.js';
import { type WasmMemory, WebAssemblySimdUnavailableError, wasmRuntime } from './wasm-runtime.js';

const PAGE = 65_536;
const LANES = 4;
const ACCUMULATORS = 4;

/** The `dots(vectorsAt, count, scoresAt)` function for vectors of `stride` floats. */
export function dotsModuleBytes(stride: number): Uint8Array {
  const [at, count, out] = [0, 1, 2];
  const acc = (i: number) => 3 + i;
  const chunks = stride / LANES;
  const used = Math.min(ACCUMULATORS, chunks);
  const body: number[] = [
    ...op.block,
    ...op.loop,
    ...op.localGet(count),
    ...op.i32Eqz,
    ...op.brIf(1),
  ];
  for (let c = 0; c < chunks; c++) {
    body.push(
      ...op.localGet(at),
      ...op.v128Load(c * 16),
      ...op.i32Const(0),
      ...op.v128Load(c * 16),
    );
    body.push(...op.f32x4Mul);
    const a = acc(c % ACCUMULATORS);
    if (c >= ACCUMULATORS) body.push(...op.localGet(a), ...op.f32x4Add);
    body.push(...op.localSet(a));
  }
  // fold the accumulators into the first, then its four lanes into one float
  for (let i = 1; i < used; i++)
    body.push(
      ...op.localGet(acc(0)),
      ...op.localGet(acc(i)),
      ...op.f32x4Add,
      ...op.localSet(acc(0)),
    );
  body.push(...op.localGet(out));
  body.push(
    ...op.localGet(acc(0)),
    ...op.f32x4ExtractLane(0),
    ...op.localGet(acc(0)),
    ...op.f32x4ExtractLane(1),
    ...op.f32Add,
  );
  body.push(
    ...op.localGet(acc(0)),
    ...op.f32x4ExtractLane(2),
    ...op.localGet(acc(0)),
    ...op.f32x4ExtractLane(3),
    ...op.f32Add,
  );
  body.push(...op.f32Add, ...op.f32Store(0));
  const step = (local: number, by: number) => [
    ...op.localGet(local),
    ...op.i32Const(by),
    ...op.i32Add,
    ...op.localSet(local),
  ];
  body.push(
    ...step(at, stride * 4),
    ...step(out, 4),
    ...step(count, -1),
    ...op.br(0),
    ...op.end,
    ...op.end,
  );
  return emitModule(
    [
      {
        name: 'dots',
        params: [valType.i32, valType.i32, valType.i32],
        results: [],
        locals: Array(ACCUMULATORS).fill(valType.v128),
        body,
      },
    ],
    1,
  );
}

/** True when this runtime validates a SIMD module (Node 20 does; some embedders do not). */
export function simdSupported(): boolean {
  try {
    return wasmRuntime()?.validate(dotsModuleBytes(LANES)) === true;
  } catch {
    return false;
  }
}

export function createSimdDotKernel(dimensions: number, initialCapacity: number): DotKernel {
  const stride = Math.ceil(dimensions / LANES) * LANES;
  const slotBytes = stride * 4;
  const vectorsAt = slotBytes;
  // compiled per arena: the module is a few KB and compiles in well under a millisecond
  const wasm = wasmRuntime();
  if (!wasm) throw new WebAssemblySimdUnavailableError();
  const instance = new wasm.Instance(new wasm.Module(dotsModuleBytes(stride)));
  const memory = instance.exports.memory as WasmMemory;
  const run = instance.exports.dots as (at: number, count: number, out: number) => void;

  let capacity = 0;
  let vectors = new Float32Array(0);
  let query = new Float32Array(0);
  let scores = new Float32Array(0);
  let scoresAt = 0;

  const layout = (slots: number) => {
    const bytes = vectorsAt + slots * slotBytes + slots * 4;
    const pages = Math.ceil(bytes / PAGE);
    if (pages > memory.buffer.byteLength / PAGE)
      memory.grow(pages - memory.buffer.byteLength / PAGE);
    // growing detaches the old buffer, so every view is made anew
    const previous = capacity;
    capacity = slots;
    scoresAt = vectorsAt + slots * slotBytes;
    query = new Float32Array(memory.buffer, 0, stride);
    vectors = new Float32Array(memory.buffer, vectorsAt, slots * stride);
    scores = new Float32Array(memory.buffer, scoresAt, slots);
    // new slots may lie where the old scores were: their padding lanes must read as zero
    vectors.fill(0, previous * stride);
  };
  layout(Math.max(1, initialCapacity));

  return {
    kind: 'simd',
    stride,
    get capacity() {
      return capacity;
    },
    get vectors() {
      return vectors;
    },
    get bytes() {
      // the module's memory, whole pages; it never shrinks, and goes with the arena
      return memory.buffer.byteLength;
    },
    reserve(slots) {
      // vectors keep their place (they start right after the query); only scratch moves
      if (slots > capacity) layout(grownCapacity(capacity, slots));
    },
    dots(q, count) {
      query.set(q.length > stride ? q.subarray(0, stride) : q);
      run(vectorsAt, count, scoresAt);
      return scores;
    },
    // float32 products and sums, in any order: at most (n + 1)·2⁻²⁴ relative (doubled for slack)
    relativeError: (stride + 1) * 2 ** -23,
  };
}
