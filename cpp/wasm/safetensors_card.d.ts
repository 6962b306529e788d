// The JavaScript face of the card module (cpp/wasm/bindings.cpp built with
// SAFETENSORS_CARD_MODULE): what `tsc --checkJs` checks web/card/model_card.js against.
// CMake copies this file beside the built module (web/wasm/safetensors_card.d.ts).

/** The loaded module. Every `_` function is private to web/. */
export interface CardModule {
  HEAPU8: Uint8Array;
  _malloc(bytes: number): number;
  _free(ptr: number): void;
  /** One file's header table (cpp/wasm/header_table.h), decoded once for its card and tree
   *  (cpp/wasm/decoded_header_table.h). */
  _DecodedHeaderTable: new (length: number) => DecodedHeaderTable;
}

/** An Embind object: delete() it. */
export interface DecodedHeaderTable {
  /** Where the table's `length` bytes are to be written; 0 when the memory could not be had. */
  bytes(): number;
  /** The card table (cpp/wasm/card_table.h), a view to copy; null when the bytes are not a
   *  loadable file's header table. */
  cardTable(): Uint8Array | null;
  /** The module tree table (cpp/wasm/card_table.h); null as above. */
  moduleTreeTable(kohya: boolean): Uint8Array | null;
  /** The verdict of this file as an adapter of `base`'s (cpp/adapter/adapter_check.h) as JSON; null
   *  when either is not a header table. */
  adapterCheck(base: DecodedHeaderTable): string | null;
  delete(): void;
}

export interface CardModuleOptions {
  wasmBinary?: ArrayBuffer | Uint8Array;
  locateFile?: (path: string, prefix: string) => string;
}

export default function createSafetensorsCard(options?: CardModuleOptions): Promise<CardModule>;
