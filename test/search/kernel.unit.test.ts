import { expect } from 'chai';
import fc from 'fast-check';
import { createDotKernel, type KernelChoice } from '../../src/search/kernel/dot-kernel.js';
import { exactDot, norm } from '../../src/search/kernel/exact-top.js';
import { dotsModuleBytes, simdSupported } from '../../src/search/kernel/simd-dot-kernel.js';
import { s32, u32 } from '../../src/search/kernel/wasm-emitter.js';
import { wasmRuntime } from '../../src/search/kernel/wasm-runtime.js';

const KERNELS: KernelChoice[] = ['simd', 'scalar'];

const vectorsArb = (dim: number, maxCount: number) =>
  fc.array(
    fc.array(fc.float({ min: -1, max: 1, noNaN: true }), { minLength: dim, maxLength: dim }),
    { minLength: 1, maxLength: maxCount },
  );

describe('Dot-product kernels', () => {
  describe('When numbers are written as LEB128', () => {
    it('matches the spec examples', () => {
      // examples from the WebAssembly / DWARF LEB128 descriptions
      expect(u32(624_485)).to.deep.equal([0xe5, 0x8e, 0x26]);
      expect(u32(0)).to.deep.equal([0]);
      expect(u32(128)).to.deep.equal([0x80, 0x01]);
      expect(s32(-123_456)).to.deep.equal([0xc0, 0xbb, 0x78]);
      expect(s32(-1)).to.deep.equal([0x7f]);
      expect(s32(64)).to.deep.equal([0xc0, 0x00]);
    });
  });

  describe('When the SIMD module is assembled', () => {
    it('validates on this runtime (Node 20 has WebAssembly SIMD)', () => {
      expect(simdSupported()).to.equal(true);
      for (const stride of [4, 8, 16, 20, 384, 512])
        expect(wasmRuntime()?.validate(dotsModuleBytes(stride)), `stride ${stride}`).to.equal(true);
    });
  });

  for (const choice of KERNELS) {
    describe(`When the ${choice} kernel scores vectors of any dimension, across growth`, () => {
      it('stays within its stated error bound of the exact dot product', () => {
        fc.assert(
          fc.property(
            fc
              .integer({ min: 1, max: 40 })
              .chain((dim) => fc.tuple(fc.constant(dim), vectorsArb(dim, 40), vectorsArb(dim, 1))),
            ([dim, rows, [queryRow]]) => {
              const kernel = createDotKernel(dim, 1, choice);
              expect(kernel.kind).to.equal(choice);
              const query = Float32Array.from(queryRow);
              rows.forEach((row, slot) => {
                kernel.reserve(slot + 1); // grows one slot at a time: stored vectors must survive
                kernel.vectors.set(Float32Array.from(row), slot * kernel.stride);
              });
              const approx = kernel.dots(query, rows.length);
              rows.forEach((row, slot) => {
                const vector = Float32Array.from(row);
                const exact = exactDot(kernel.vectors, slot * kernel.stride, query, dim);
                expect(exact).to.equal(exactDot(vector, 0, query, dim));
                const bound = kernel.relativeError * norm(vector) * norm(query) + 1e-30;
                expect(Math.abs(approx[slot] - exact)).to.be.at.most(bound);
              });
            },
          ),
          { numRuns: 150 },
        );
      });
    });
  }

  describe('When the SIMD kernel scores 512-dimensional unit vectors', () => {
    it('is within 1e-5 of the exact dot product (the rescoring margin stays small)', () => {
      const dim = 512;
      const kernel = createDotKernel(dim, 8, 'simd');
      const unit = (seed: number) => {
        const v = Float32Array.from({ length: dim }, (_, i) => Math.sin(seed * 7.3 + i * 1.7));
        const n = norm(v);
        return v.map((x) => x / n);
      };
      const query = unit(99);
      for (let slot = 0; slot < 8; slot++) kernel.vectors.set(unit(slot), slot * kernel.stride);
      const approx = kernel.dots(query, 8);
      for (let slot = 0; slot < 8; slot++) {
        const exact = exactDot(kernel.vectors, slot * kernel.stride, query, dim);
        expect(Math.abs(approx[slot] - exact)).to.be.below(1e-5);
      }
      expect(kernel.relativeError).to.be.below(1e-4);
    });
  });
});
