// Reads across threads, for sources a worker cannot be sent (a Node FileHandle, a Blob from
// Node's fs.openAsBlob, which is not cloneable, any { size, read } object): the page reads
// them and answers the worker's reads through a MessagePort, each answer a copy moved (not
// copied again) to the worker.
import { errorText, readError } from '../core/errors.js';

/**
 * @typedef {{ id: number, offset: number, length: number }} ReadRequest
 * @typedef {{ id: number, bytes?: Uint8Array, error?: string }} ReadAnswer
 * @typedef {MessagePort & { unref?: () => void }} Port  a MessagePort, in a browser or in Node (which has unref)
 */

/**
 * The page's end: answers each read of `source` posted to `port`. The port does not keep a
 * Node process alive (a request in flight does: see Channel).
 * @param {Port} port
 * @param {{ read(offset: number, length: number): Promise<Uint8Array> }} source
 */
export function serveReads(port, source) {
  port.onmessage = async ({ data }) => {
    const { id, offset, length } = /** @type {ReadRequest} */ (data);
    try {
      // A copy of its own: the source's bytes may be a view of the caller's buffer.
      const bytes = (await source.read(offset, length)).slice();
      port.postMessage(/** @type {ReadAnswer} */ ({ id, bytes }), [bytes.buffer]);
    } catch (error) {
      port.postMessage(/** @type {ReadAnswer} */ ({ id, error: errorText(error) }));
    }
  };
  port.unref?.();
}

/**
 * The worker's end: a { size, read } source whose reads are answered by the page.
 * @param {Port} port
 * @param {number} size
 * @returns {{ size: number, read(offset: number, length: number): Promise<Uint8Array> }}
 */
export function portReader(port, size) {
  /** @type {Map<number, { resolve: (bytes: Uint8Array) => void, reject: (error: unknown) => void }>} */
  const pending = new Map();
  let next = 1;
  port.onmessage = ({ data }) => {
    const { id, bytes, error } = /** @type {ReadAnswer} */ (data);
    const read = pending.get(id);
    pending.delete(id);
    if (error !== undefined || !bytes) read?.reject(readError(`the page could not read the file: ${error}`));
    else read?.resolve(bytes);
  };
  return {
    size,
    read: (offset, length) =>
      new Promise((resolve, reject) => {
        const id = next++;
        pending.set(id, { resolve, reject });
        port.postMessage(/** @type {ReadRequest} */ ({ id, offset, length }));
      }),
  };
}
