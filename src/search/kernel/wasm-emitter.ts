/**
 * Just enough of the WebAssembly binary format to hand-assemble one small module: LEB128
 * numbers, sections, and the opcodes the dot-product kernel uses. Writing the bytes here
 * (rather than shipping a .wasm file) lets the kernel be specialised to the arena's dimension,
 * so every load uses a constant offset and the inner loop disappears.
 * Format reference: https://webassembly.github.io/spec/core/binary/
 */

export const valType = { i32: 0x7f, f32: 0x7d, v128: 0x7b } as const;
export type ValType = (typeof valType)[keyof typeof valType];

/** unsigned LEB128 */
export function u32(value: number): number[] {
  const out: number[] = [];
  let rest = value >>> 0;
  do {
    let byte = rest & 0x7f;
    rest >>>= 7;
    if (rest !== 0) byte |= 0x80;
    out.push(byte);
  } while (rest !== 0);
  return out;
}

/** signed LEB128 (for i32.const) */
export function s32(value: number): number[] {
  const out: number[] = [];
  let rest = value | 0;
  for (;;) {
    const byte = rest & 0x7f;
    rest >>= 7;
    const done = (rest === 0 && (byte & 0x40) === 0) || (rest === -1 && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}

const utf8 = (text: string) => [...new TextEncoder().encode(text)];
const vec = (items: number[][]) => [...u32(items.length), ...items.flat()];
const section = (id: number, body: number[]) => [id, ...u32(body.length), ...body];

/** Instructions, as byte arrays to splice into a function body. */
export const op = {
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  end: [0x0b],
  br: (depth: number) => [0x0c, ...u32(depth)],
  brIf: (depth: number) => [0x0d, ...u32(depth)],
  localGet: (index: number) => [0x20, ...u32(index)],
  localSet: (index: number) => [0x21, ...u32(index)],
  i32Const: (value: number) => [0x41, ...s32(value)],
  i32Eqz: [0x45],
  i32Add: [0x6a],
  i32Sub: [0x6b],
  f32Add: [0x92],
  /** memarg: log2 of the alignment hint, then a constant byte offset */
  f32Store: (offset: number) => [0x38, 2, ...u32(offset)],
  v128Load: (offset: number) => [0xfd, ...u32(0), 4, ...u32(offset)],
  f32x4ExtractLane: (lane: number) => [0xfd, ...u32(31), lane],
  f32x4Add: [0xfd, ...u32(228)],
  f32x4Mul: [0xfd, ...u32(230)],
} as const;

export interface FunctionSpec {
  name: string;
  params: ValType[];
  results: ValType[];
  /** extra locals after the params, one entry per local */
  locals: ValType[];
  body: number[];
}

/** A module with one memory (exported as "memory", no maximum) and the given exported functions. */
export function emitModule(functions: FunctionSpec[], memoryPages: number): Uint8Array {
  const types = functions.map((f) => [
    0x60,
    ...vec(f.params.map((t) => [t])),
    ...vec(f.results.map((t) => [t])),
  ]);
  const funcs = functions.map((_, i) => u32(i));
  const memory = [[0x00, ...u32(memoryPages)]];
  const exports = [
    [...u32(6), ...utf8('memory'), 0x02, 0x00],
    ...functions.map((f, i) => [...u32(utf8(f.name).length), ...utf8(f.name), 0x00, ...u32(i)]),
  ];
  const codes = functions.map((f) => {
    // locals are declared as runs of one type
    const runs: number[][] = [];
    for (const type of f.locals) {
      const last = runs.at(-1);
      if (last && last[1] === type) last[0]++;
      else runs.push([1, type]);
    }
    const body = [...vec(runs.map(([n, t]) => [...u32(n), t])), ...f.body, ...op.end];
    return [...u32(body.length), ...body];
  });
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec(types)),
    ...section(3, vec(funcs)),
    ...section(5, vec(memory)),
    ...section(7, vec(exports)),
    ...section(10, vec(codes)),
  ]);
}
