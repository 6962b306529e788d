// The JavaScript face of cpp/wasm/bindings.cpp (Embind) and of the Emscripten runtime
// pieces web/ uses: what `tsc --checkJs` checks web/core/ and its callers against.
// CMake copies this file beside the built module (web/wasm/safetensors_core.d.ts).

/** The data scan of one file (bindings.cpp, HeapScanner); delete() frees it. */
export interface HeapScanner {
  /** Starts the tensor at `index` (data order) of dtype index `dtype`. */
  begin(index: number, dtype: number): void;
  /** Feeds `length` bytes at heap address `ptr`. */
  feed(ptr: number, length: number): void;
  /** Ends the tensor: [nan, +inf, -inf, all zero (0/1)], a view to read at once. */
  end(): Float64Array;
  /** The scan's findings table (a view to copy at once); `nameOf(index)` names a tensor. */
  findings(nameOf: (index: number) => string): Uint8Array;
  delete(): void;
}

/** The loaded module. Every `_` function is private to web/. */
export interface CoreModule {
  HEAPU8: Uint8Array;
  HEAPF32: Float32Array;
  _malloc(bytes: number): number;
  _free(ptr: number): void;
  /** The dtype table, error kinds and finding codes (cpp/wasm/core_tables.h), a view to copy. */
  _coreTables(): Uint8Array;
  _inputPadding(): number;
  _headerBytesNeeded(ptr: number, length: number, fileSize: bigint): number;
  /** The header table (cpp/wasm/header_table.h), a view to copy; null when out of memory. */
  _analyzeHeader(ptr: number, length: number, fileSize: bigint): Uint8Array | null;
  _convertToF32(dtype: number, input: number, output: number, count: number): void;
  _normalizeBool(input: number, output: number, count: number): void;
  /** Float elements of dtype `from` to `to` (F16 or BF16), rounded to nearest even (cpp/convert/narrow_float.h). */
  _narrowFloats(from: number, to: number, input: number, output: number, count: number): void;
  _canNarrow(from: number, to: number): boolean;
  _HeapScanner: { new (): HeapScanner; prototype: HeapScanner };
}

export interface CoreModuleOptions {
  wasmBinary?: ArrayBuffer | Uint8Array;
  locateFile?: (path: string, prefix: string) => string;
  /** Emscripten's hook: instantiate with `imports`, hand the result to `receive`, return {}. */
  instantiateWasm?: (
    imports: WebAssembly.Imports,
    receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void,
  ) => object;
}

export default function createSafetensorsCore(options?: CoreModuleOptions): Promise<CoreModule>;
