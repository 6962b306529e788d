// The JavaScript face of the pickle module (cpp/wasm/bindings.cpp built with
// SAFETENSORS_PICKLE_MODULE): what `tsc --checkJs` checks web/pickle/scan_pickle.js against.
// CMake copies this file beside the built module (web/wasm/safetensors_pickle.d.ts).

/** The loaded module. Every `_` function is private to web/. */
export interface PickleModule {
  HEAPU8: Uint8Array;
  _malloc(bytes: number): number;
  _free(ptr: number): void;
  /** One scan of a file of `size` bytes named `name` (cpp/wasm/pickle_scan_session.h). */
  _PickleScan: new (size: bigint, name: string) => PickleScan;
}

/** An Embind object: delete() it. */
export interface PickleScan {
  /** The address of room for `length` bytes, taken by the next add() or inflated(true). */
  reserve(length: number): number;
  /** Files the reserved bytes as the file's bytes at `offset`. */
  add(offset: bigint): void;
  /** true: locate the storages too, and end with the tensors and storages (openCheckpoint). */
  wantContents(on: boolean): void;
  /** One round as JSON: the scan report, or `{ misses: [[offset, length]], inflate: count }`. */
  round(): string;
  /** The first record waiting to be inflated (raw deflate), a view to copy; null when none. */
  inflateInput(): Uint8Array | null;
  /** Its size once inflated, as the zip directory says. */
  inflateSize(): bigint;
  /** Ends that record: the reserved bytes when `ok`, else a failure. */
  inflated(ok: boolean): void;
  delete(): void;
}

export interface PickleModuleOptions {
  wasmBinary?: ArrayBuffer | Uint8Array;
  locateFile?: (path: string, prefix: string) => string;
}

export default function createSafetensorsPickle(options?: PickleModuleOptions): Promise<PickleModule>;
