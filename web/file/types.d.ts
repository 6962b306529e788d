// Types of an opened file and of validating one. Re-exported by web/index.d.ts.
import type { ModelCard } from '../card/types.js';
import type { Finding, ReferenceErrorKind } from '../core/types.js';
import type { HashOptions, HashResult } from '../hashing/types.js';
import type { DataScan, TensorInfo, TensorReader } from '../tensors/types.js';
import type { GpuUploader } from '../gpu/types.js';

export interface SafetensorsFile extends TensorReader, GpuUploader {
  /** In data order (sorted by offsets); duplicates resolved as the reference does (last wins). */
  tensors: TensorInfo[];
  /** The __metadata__ map, or null when absent. */
  metadata: Record<string, string> | null;
  /** N, the header's length in bytes. */
  headerSize: number;
  /** 8 + N: where tensor data begins. */
  dataStart: number;
  fileSize: number;
  /** Warnings and notes about a loadable file (the same array as report.findings). */
  findings: Finding[];
  /** The verdict from the same read of the header: what validateSafetensors would return. */
  report: ValidationReport;
  /**
   * What the file is, from its header and metadata (built by the card module from the header as
   * read at open, on the first call, and kept: a new object each call), with the KV cache from
   * the config.json given or found beside the file (OpenOptions.config). Reads no tensor data,
   * except with `readAlpha` when only an adapter's `.alpha` tensors hold its alpha (then one
   * scalar is read, on the first such call).
   */
  describe(options?: { readAlpha?: boolean; signal?: AbortSignal }): Promise<ModelCard>;
  /**
   * SHA-256 of the whole file, of its data section and of tensors, all in one streamed read
   * (bounded memory; a second and third hash run in workers where they can), checked against
   * the hashes the metadata claims. Rejects like getTensor ("ReadError", "TensorNotFound" for
   * an unknown name in `tensors`, the signal's reason when aborted).
   */
  hash(options?: HashOptions): Promise<HashResult>;
  /**
   * The same file with other metadata (null: none), as a Blob: a new header (checked by the
   * validator), then this file's data section as a slice of the original, byte for byte (its
   * data hash, AutoV3 and sshs_model_hash stay). Tensors keep their offsets. Rejects with
   * "InvalidMetadata" (a value that is not a string) and "UnsupportedSource" (a file opened
   * from a URL or FileHandle: only Blobs and bytes can be sliced without reading them).
   */
  withMetadata(metadata: Record<string, string> | null): Promise<Blob>;
  /** Node: writes the edited file to `path` (whole or not at all; in place is safe), its data section streamed from this file's source, whatever it is; `onProgress` counts its bytes. */
  withMetadata(
    metadata: Record<string, string> | null,
    options: { path: string; signal?: AbortSignal; onProgress?: (done: number, total: number) => void },
  ): Promise<void>;
  /**
   * The file with its float tensors (F32, F64, and BF16 or F16: the other 16-bit one) as `to`,
   * rounded to nearest with ties to even in WASM SIMD kernels (NaN stays NaN, values past the
   * largest finite one become ±Infinity), laid out as the reference writer lays them out; other
   * tensors (integers, BOOL, 8-bit and smaller floats, C64) are copied. `tensors` picks which
   * float tensors to convert. Streams a chunk at a time; the new header is checked by the
   * validator. `onProgress` counts the bytes of the tensors being converted.
   */
  convert(options: ConvertOptions & { path?: undefined }): Promise<Blob>;
  /** Node: writes the converted file to `path` (whole or not at all), in bounded memory. */
  convert(options: ConvertOptions & { path: string }): Promise<void>;
}

export interface ConvertOptions {
  to: 'F16' | 'BF16';
  tensors?: (name: string) => boolean;
  signal?: AbortSignal;
  onProgress?: (bytesDone: number, bytesTotal: number) => void;
}

export interface ValidationReport {
  /** True if and only if the reference loader accepts the file. */
  loadable: boolean;
  referenceError: ReferenceErrorKind | null;
  /** The reference error first (severity "error"), then warnings and notes. */
  findings: Finding[];
  /** Tensors in the header (0 when the header could not be read). */
  tensors: number;
  /** Only with `scanData: true`: the counts per tensor, or null when the file is not loadable. */
  dataScan?: DataScan | null;
  /** Only with `hash: true`: the file's hashes (no data hash when its header's length is unreadable). */
  hashes?: HashResult;
  /** Only with `describe: true`: the header's model card (a rejected file whose header is read
   * has one), or null when the header could not be read or lists no tensors. */
  card?: ModelCard | null;
  /**
   * Only with `describe: true`, and only when the card is null or built from part of the header:
   * why, as a sentence. A header whose data_offsets are invalid (InvalidOffset, or offsets that
   * are no byte range) gets a card from its names, dtypes and shapes, each tensor's bytes being
   * what its dtype and shape say; this says so and for how many tensors.
   */
  cardNote?: string;
  /**
   * validateSafetensors on an http(s) URL that answered an error status (404, 403, a lasting
   * 5xx): that status. Nothing was read; the one finding is an `HttpError`.
   */
  status?: number;
}

export interface ReadOptions {
  signal?: AbortSignal;
  /** For http(s) URLs: the fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** For http(s) URLs: headers sent with every request, e.g. `{ Authorization: 'Bearer <token>' }`. */
  headers?: HeadersInit;
  /** For http(s) URLs: bytes asked for by the first request (default 262,144); reads inside them cost no request. */
  firstRead?: number;
}

/**
 * openSafetensors' options. `config`: the model's config.json (transformers' config, beside the
 * weights), from which describe() gives a decoder language model's KV cache size
 * (`card.memory.kvCache`). Give it as a picked `File` or any `Blob`, its bytes, an http(s) URL
 * (an error status such as 404: none), or in Node its path. In Node, a file opened by its path
 * reads the `config.json` in the same folder when there is one, unless `config` is given (`null`:
 * none). It is read on the first describe(), never at open; one that cannot be read or is not
 * JSON adds a `ConfigUnreadable` finding (severity info) to `findings` and the card has no KV
 * cache. Picked files in a browser: `openSafetensors(file, { config: picked.find((f) => f.name ===
 * 'config.json') })`; `openSafetensorsIndex([file, configFile])` opens the same file as a model
 * of one shard, with its config.
 */
export interface OpenOptions extends ReadOptions {
  config?: Blob | Uint8Array | string | URL | null;
  /**
   * The page will describe() this file: the model card's module starts loading now, beside the
   * core and the header read, not on the first describe() (a page that only opens files never
   * downloads it). A failure to load it is describe()'s.
   */
  preloadCard?: boolean;
}

export interface ValidateOptions extends ReadOptions {
  /** Also read every tensor once, counting NaN, infinities and all-zero tensors. */
  scanData?: boolean;
  /** Also hash the file (as SafetensorsFile.hash() with file and data) in the same read. */
  hash?: boolean;
  /** With scanData or hash: called after each chunk with bytes read so far and the total. */
  onProgress?: (bytesDone: number, bytesTotal: number) => void;
  /** Also build the model card of the header as read, even when the file is not loadable. */
  describe?: boolean;
}
