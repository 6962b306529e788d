// safetensors-wasm/worker: the read API of a SafetensorsFile, its work done in workers.
/**
 * openInWorker: a file opened in Web Workers (worker threads in Node), tensors decoded off the calling thread.
 * @module safetensors-wasm/worker
 */
import type {
  GetTensorOptions,
  GetTensorsOptions,
  HashOptions,
  HashResult,
  ModelCard,
  SafetensorsFile,
  SafetensorsSource,
  StreamTensorOptions,
  TensorArray,
} from './index.js';

export interface WorkerOptions {
  /** Workers to start; each opens the file once, and requests go to the least busy. Default 1. */
  concurrency?: number;
  signal?: AbortSignal;
  /** For http(s) URLs: headers sent with every request. */
  headers?: HeadersInit;
  firstRead?: number;
}

/** A file opened in workers: the same fields and reads as SafetensorsFile; arrays arrive transferred. `into` is not available. */
export interface WorkerFile extends Pick<
  SafetensorsFile,
  'tensors' | 'metadata' | 'headerSize' | 'dataStart' | 'fileSize' | 'findings' | 'report'
> {
  getTensor(name: string, options?: Omit<GetTensorOptions<'native'>, 'into'>): Promise<TensorArray>;
  getTensor(name: string, options: Omit<GetTensorOptions<'float32'>, 'into'>): Promise<Float32Array>;
  getTensor(name: string, options: Omit<GetTensorOptions<'raw'>, 'into'>): Promise<Uint8Array>;
  getTensor(name: string, options?: Omit<GetTensorOptions, 'into'>): Promise<TensorArray>;
  /** Split over the workers by bytes, each reading its share in one pass. */
  getTensors(names?: string[], options?: GetTensorsOptions): Promise<Map<string, TensorArray>>;
  /** Pieces come transferred, each a fresh array (a few are sent ahead of your reading). */
  streamTensor(
    name: string,
    options?: StreamTensorOptions,
  ): AsyncGenerator<{ offset: number; values: TensorArray }, void, undefined>;
  describe(options?: { readAlpha?: boolean; signal?: AbortSignal }): Promise<ModelCard>;
  hash(options?: HashOptions): Promise<HashResult>;
  /** Stops the workers. */
  close(): void;
}

/**
 * Opens a source in module workers (Node: worker threads), with the read API of
 * openSafetensors; the page's thread only receives results, transferred. A Blob/File, bytes,
 * an http(s) URL or (Node) a path are opened by each worker; a Node FileHandle, a Blob from
 * Node's `fs.openAsBlob` (not cloneable) or a `{ size, read }` object are read on this thread
 * for the workers. Anything else is a TypeError before any worker starts. Rejects as
 * openSafetensors does (the SafetensorsError is rebuilt on this side, with its report);
 * "InitError" when a worker cannot start. In Node, idle workers do not keep the process
 * alive: a script that forgets `close()` still exits.
 */
export function openInWorker(source: SafetensorsSource, options?: WorkerOptions): Promise<WorkerFile>;
