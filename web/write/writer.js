// Writing .safetensors files: serializeSafetensors (a Blob), writeSafetensors (a file in Node,
// whole or not at all), and the edited header of withMetadata. The bytes are the reference
// writer's (header_bytes.js, tensor_layout.js).
import { initSafetensors } from '../core/modules.js';
import { isNode } from '../core/platform.js';
import { checkWritten, headerBytes, metadataJson, packedHeader } from './header_bytes.js';
import { layOut } from './tensor_layout.js';

/** @typedef {import('./tensor_layout.js').TensorsToWrite} TensorsToWrite */

/**
 * @param {TensorsToWrite} tensors
 * @param {{ metadata?: Record<string, string> | null }} [options]
 * @returns {Promise<{ header: Uint8Array, parts: (Uint8Array | Blob)[], size: number }>}
 */
export async function planFile(tensors, options = {}) {
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
  const core = await initSafetensors();
  const metadata = metadataJson(options.metadata);
  const { header, laid, size } = await packedHeader(core, metadata, layOut(tensors, core.tables.dtypes));
  return { header, parts: laid.map((e) => e.bytes), size };
}

/**
 * Builds a .safetensors file as a Blob: the reference writer's bytes for the same tensors.
 * @param {TensorsToWrite} tensors
 * @param {{ metadata?: Record<string, string> | null }} [options]
 * @returns {Promise<Blob>}
 */
export async function serializeSafetensors(tensors, options = {}) {
  const { header, parts } = await planFile(tensors, options);
  return new Blob(/** @type {BlobPart[]} */ ([header, ...parts]));
}

/**
 * A new prefix and header for an opened file with other metadata: the same tensors, in data
 * order, at the same offsets, so that its data section (and every hash of it) stays byte for
 * byte. Checked with the validator against the size the edited file will have.
 * @param {import('../index.js').SafetensorsFile} file
 * @param {Record<string, string> | null} metadata
 * @returns {Promise<{ header: Uint8Array, dataStart: number, dataLength: number }>}
 */
export async function editedHeader(file, metadata) {
  const core = await initSafetensors();
  const entries = file.tensors.map((t) => ({
    name: t.name,
    dtype: { name: t.dtype },
    shape: t.exactShape ?? t.shape,
    begin: t.dataOffsets[0],
    end: t.dataOffsets[1],
  }));
  const header = headerBytes(core, metadataJson(metadata), entries);
  const dataLength = file.fileSize - file.dataStart;
  await checkWritten(header, header.byteLength + dataLength);
  return { header, dataStart: file.dataStart, dataLength };
}

/**
 * node_write.js, in Node only (a variable specifier keeps bundlers from following it).
 * @returns {Promise<typeof import('./node_write.js')>}
 */
async function nodeWriter() {
  if (!isNode())
    throw new TypeError(
      'writing to a path works in Node; in a browser, use the Blob (serializeSafetensors, withMetadata without a path)',
    );
  const module = './node_write.js';
  return import(/* @vite-ignore */ /* webpackIgnore: true */ module);
}

/**
 * Node: writes a .safetensors file to `path` (whole or not at all), parts one after another.
 * @param {string} path
 * @param {TensorsToWrite} tensors
 * @param {{ metadata?: Record<string, string> | null, signal?: AbortSignal }} [options]
 */
export async function writeSafetensors(path, tensors, options = {}) {
  if (typeof path !== 'string') throw new TypeError('path must be a string');
  const { header, parts } = await planFile(tensors, options);
  await writeParts(path, [header, ...parts], options.signal);
}

/**
 * Node: writes `parts` to `path`, whole or not at all (node_write.js).
 * @param {string} path
 * @param {(Uint8Array | Blob | AsyncIterable<Uint8Array>)[]} parts
 * @param {AbortSignal} [signal]
 */
export async function writeParts(path, parts, signal) {
  if (typeof path !== 'string') throw new TypeError('options.path must be a string');
  await (await nodeWriter()).writeParts(path, parts, signal);
}

/**
 * Node: writes `file` with other metadata to `path`, its data section streamed from the
 * source it was opened from (any source: a FileHandle, a URL, bytes); `onProgress` follows
 * each chunk of it.
 * @param {string} path
 * @param {{ header: Uint8Array, dataStart: number, dataLength: number }} edited
 * @param {{ chunks(offset: number, length: number, signal?: AbortSignal): AsyncIterable<Uint8Array> }} source
 * @param {{ signal?: AbortSignal, onProgress?: (done: number, total: number) => void }} options
 */
export async function writeEdited(path, edited, source, { signal, onProgress }) {
  const total = edited.dataLength;
  async function* counted() {
    let done = 0;
    if (total === 0) onProgress?.(0, 0);
    for await (const chunk of source.chunks(edited.dataStart, total, signal)) {
      yield chunk;
      onProgress?.((done += chunk.byteLength), total);
    }
  }
  await writeParts(path, [edited.header, counted()], signal);
}
