// Types of what a file is read from. Re-exported by web/index.d.ts.

/** Anything with a size and positional reads; every other source is adapted to this. */
export interface ByteReader {
  /** Total size in bytes. */
  readonly size: number;
  /** Resolves to exactly `length` bytes starting at `offset`. */
  read(offset: number, length: number): Promise<Uint8Array>;
}

/** A Node `fs.promises.FileHandle` (structural, so no Node types are needed). */
export interface FileHandleLike {
  readonly fd: number;
  stat(): Promise<{ size: number }>;
  read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
}

/**
 * What `openSafetensors` and `validateSafetensors` read from. A string or URL is an http(s)
 * URL, or in Node a path or file: URL (the file is opened for each read: nothing to close).
 */
export type SafetensorsSource = Blob | ArrayBuffer | ArrayBufferView | FileHandleLike | ByteReader | string | URL;
