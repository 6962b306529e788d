// The methods of an opened file that read tensors: getTensor, streamTensor, getTensors.
import { tensorNotFound } from '../core/errors.js';
import { initSafetensors } from '../core/modules.js';
import { planTensorRead } from '../tensors/plan.js';
import { decodePieces, decodeTensor } from '../tensors/decode.js';
import { readTensorBatch } from '../tensors/batch.js';
import { checkOptions } from './options.js';

/**
 * @param {import('./open_file.js').OpenedFile} opened
 * @returns {import('../index.js').TensorReader}
 */
export function tensorReads({ source, header, byName }) {
  const { tensors, dataStart, dtypeIndex } = header;
  /** The read plan of tensor `name` for `options`, on the loaded core. */
  const planFor = async (
    /** @type {string} */ name,
    /** @type {{ as?: string, rows?: [number, number] }} */ options,
  ) => {
    const index = byName().get(name);
    if (index === undefined) throw tensorNotFound(name, tensors);
    const core = await initSafetensors();
    return {
      core,
      tensor: tensors[index],
      plan: planTensorRead(tensors[index], core.tables.dtypes[dtypeIndex[index]], dataStart, options),
    };
  };
  // One implementation per method serves its overloads, which narrow the array's type by `as`.
  return /** @type {import('../index.js').TensorReader} */ ({
    /**
     * Reads one tensor (or rows of it) into a typed array, streaming only its bytes.
     * @param {string} name
     * @param {{ as?: 'native' | 'float32' | 'raw', rows?: [number, number], signal?: AbortSignal,
     *   onProgress?: (bytesDone: number, bytesTotal: number) => void, into?: ArrayBufferView }} [tensorOptions]
     *   `into`: an array of the result's type to fill (and return a view of) instead of a new one
     */
    async getTensor(name, tensorOptions = {}) {
      checkOptions(tensorOptions);
      const { core, tensor, plan } = await planFor(name, tensorOptions);
      return decodeTensor(core, source, plan, tensor, tensorOptions);
    },
    /**
     * One tensor (or rows of it) as converted pieces, read and converted a chunk at a time:
     * `values` is a view on one reused array, valid until the next step. Peak memory is one
     * chunk whatever the tensor's size.
     * @param {string} name
     * @param {{ as?: 'native' | 'float32' | 'raw', rows?: [number, number], signal?: AbortSignal,
     *   onProgress?: (bytesDone: number, bytesTotal: number) => void, chunkBytes?: number }} [streamOptions]
     * @returns {AsyncGenerator<import('../tensors/decode.js').TensorPiece, void, undefined>}
     */
    async *streamTensor(name, streamOptions = {}) {
      checkOptions(streamOptions);
      const { chunkBytes, signal, onProgress } = streamOptions;
      if (chunkBytes !== undefined && (!Number.isSafeInteger(chunkBytes) || chunkBytes < 1))
        throw new TypeError('options.chunkBytes must be a positive integer');
      const { core, plan } = await planFor(name, streamOptions);
      yield* decodePieces(core, source, plan, { signal, onProgress, chunkBytes });
    },
    /**
     * Many tensors (all without `names`) in one pass over the file: adjacent tensors are read
     * as one stream, a few runs at a time. Same `as` and errors as getTensor.
     * @param {string[]} [names]
     * @param {{ as?: 'native' | 'float32' | 'raw', concurrency?: number, signal?: AbortSignal,
     *   onProgress?: (bytesDone: number, bytesTotal: number) => void }} [batchOptions]
     */
    async getTensors(names, batchOptions = {}) {
      checkOptions(batchOptions);
      return readTensorBatch(
        await initSafetensors(),
        source,
        { tensors, dataStart, dtypeIndex, byName },
        names,
        batchOptions,
      );
    },
  });
}
