// The JavaScript face of the card module (cpp/wasm/bindings.cpp built with
// SAFETENSORS_CARD_MODULE): what `tsc --checkJs` checks web/card/model_card.js against.
// CMake copies this file beside the built module (web/wasm/safetensors_card.d.ts).

/** The loaded module. Every `_` function is private to web/. */
export interface CardModule {
  HEAPU8: Uint8Array;
  _malloc(bytes: number): number;
  _free(ptr: number): void;
  /** The card table (cpp/wasm/card_table.h) of a loadable file's header table
   *  (cpp/wasm/header_table.h) at `ptr`, a view to copy; null when it is not one. */
  _cardTable(ptr: number, length: number): Uint8Array | null;
  /** The module tree table (cpp/wasm/card_table.h) of the same header table; null as above. */
  _moduleTreeTable(ptr: number, length: number, kohya: boolean): Uint8Array | null;
}

export interface CardModuleOptions {
  wasmBinary?: ArrayBuffer | Uint8Array;
  locateFile?: (path: string, prefix: string) => string;
}

export default function createSafetensorsCard(options?: CardModuleOptions): Promise<CardModule>;
