// The methods of an opened file that write a changed copy: withMetadata and convert.
import { SafetensorsError } from '../core/errors.js';
import { editedHeader, writeEdited } from '../write/writer.js';
import { convertFile } from '../write/convert_file.js';
import { checkOptions } from './options.js';

/**
 * Bytes [begin, end) of a file opened from a Blob or bytes, without reading or copying them;
 * null for other sources (they are read).
 * @param {unknown} input
 * @returns {(begin: number, end: number) => Blob | Uint8Array | null}
 */
function slicer(input) {
  if (typeof Blob !== 'undefined' && input instanceof Blob) return (begin, end) => input.slice(begin, end);
  if (input instanceof ArrayBuffer) return (begin, end) => new Uint8Array(input, begin, end - begin);
  if (ArrayBuffer.isView(input))
    return (begin, end) => new Uint8Array(input.buffer, input.byteOffset + begin, end - begin);
  return () => null;
}

/**
 * @param {import('./open_file.js').OpenedFile} opened
 * @param {() => import('../index.js').SafetensorsFile} self the handle whose header is edited
 * @returns {Pick<import('../index.js').SafetensorsFile, 'withMetadata' | 'convert'>}
 */
export function edits({ input, source, header }, self) {
  // One implementation per method serves its overloads (a Blob, or nothing with `path`).
  return /** @type {Pick<import('../index.js').SafetensorsFile, 'withMetadata' | 'convert'>} */ ({
    /**
     * The same file with other metadata (null: none), as a Blob: a new header, then the
     * original's data section as a slice of it (not copied). With `path` (Node), written to
     * that file instead, the data section streamed from this file's source.
     * @param {Record<string, string> | null} metadata
     * @param {{ path?: string, signal?: AbortSignal, onProgress?: (done: number, total: number) => void }} [writeOptions]
     * @returns {Promise<Blob | void>} a Blob, or nothing when written to `path`
     */
    async withMetadata(metadata, writeOptions = {}) {
      const { path, signal, onProgress } = checkOptions(writeOptions);
      const edited = await editedHeader(self(), metadata);
      if (path !== undefined) return writeEdited(path, edited, source, { signal, onProgress });
      const data = slicer(input)(edited.dataStart, header.fileSize);
      if (data === null) {
        throw new SafetensorsError(
          'UnsupportedSource',
          'withMetadata needs a file opened from a Blob, File or bytes to return a Blob (a URL or FileHandle cannot be sliced without reading it); in Node, pass { path } to stream it to a file',
        );
      }
      return new Blob(/** @type {BlobPart[]} */ ([edited.header, data]));
    },
    /**
     * The file with its float tensors (F32, F64 and the other 16-bit float) as F16 or BF16,
     * rounded to nearest even, laid out as the reference writer would: a Blob, or with `path`
     * (Node) a file. Other tensors are copied.
     * @param {{ to: 'F16' | 'BF16', tensors?: (name: string) => boolean, path?: string, signal?: AbortSignal,
     *   onProgress?: (done: number, total: number) => void }} convertOptions
     * @returns {Promise<Blob | void>} a Blob, or nothing when written to `path`
     */
    async convert(convertOptions) {
      return convertFile(self(), source, slicer(input), header.embeddedHashes, checkOptions(convertOptions));
    },
  });
}
