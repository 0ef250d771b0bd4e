/**
 * The runtime's WebAssembly API, typed locally: the project compiles without the DOM library,
 * whose declarations are where TypeScript keeps the `WebAssembly` namespace.
 */

export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

export interface WasmInstance {
  readonly exports: Record<string, unknown>;
}

export interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => WasmInstance;
}

/** undefined where the runtime has no WebAssembly at all */
export function wasmRuntime(): WasmApi | undefined {
  return (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
}

export class WebAssemblySimdUnavailableError extends Error {
  constructor() {
    super('WebAssembly SIMD is not available in this runtime');
    this.name = 'WebAssemblySimdUnavailableError';
  }
}
