// Streams one tensor into its GPU buffer: the reader's streamTensor yields a chunk at a time
// (converted to float32 by the WASM SIMD kernels, or the tensor's bytes), each piece goes to
// the buffer by queue.writeBuffer (which copies it out at once), so the chunk's memory is
// reused for the next one. Bytes written are kept 4-aligned, as writeBuffer requires.

/** @typedef {import('./types.js').GpuDeviceLike} GpuDeviceLike */
/** @typedef {import('./gpu_plan.js').GpuPlan} GpuPlan */

/** Bytes written between two waits for the queue: data in flight to the GPU stays bounded. */
export const IN_FLIGHT_BYTES = 16 << 20;

/**
 * Writes the tensor of `plan` into `buffer`.
 * @param {GpuDeviceLike} device
 * @param {import('./types.js').GpuBufferLike} buffer the plan's buffer, of plan.byteLength bytes
 * @param {Pick<import('../index.js').TensorReader, 'streamTensor'>} reader
 * @param {GpuPlan} plan
 * @param {{ signal?: AbortSignal, chunkBytes?: number, onBytes: (done: number) => void,
 *   checkDevice: () => void }} options onBytes: the tensor's bytes read so far;
 *   checkDevice: throws when the device is lost
 */
export async function uploadTensor(device, buffer, reader, plan, options) {
  const { signal, chunkBytes, onBytes, checkDevice } = options;
  const { queue } = device;
  const as = plan.as === 'native' ? 'raw' : 'float32';
  let at = 0; // bytes of the buffer written
  let sinceWait = 0;
  // native: up to 3 bytes of a piece's end, written with the next piece's first bytes.
  const carry = new Uint8Array(4);
  let carried = 0;
  const pieces = reader.streamTensor(plan.info.name, { as, signal, chunkBytes, onProgress: (done) => onBytes(done) });
  for await (const { values } of pieces) {
    checkDevice();
    let bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
    if (carried > 0) {
      const take = Math.min(4 - carried, bytes.byteLength);
      carry.set(bytes.subarray(0, take), carried);
      carried += take;
      bytes = bytes.subarray(take);
      if (carried < 4) continue;
      queue.writeBuffer(buffer, at, carry);
      at += 4;
    }
    const aligned = bytes.byteLength - (bytes.byteLength % 4);
    if (aligned > 0) queue.writeBuffer(buffer, at, bytes, 0, aligned);
    at += aligned;
    carried = bytes.byteLength - aligned;
    carry.set(bytes.subarray(aligned));
    sinceWait += aligned;
    if (sinceWait >= IN_FLIGHT_BYTES) {
      sinceWait = 0;
      await queue.onSubmittedWorkDone();
    }
  }
  if (carried > 0) {
    carry.fill(0, carried); // the padding to a multiple of 4
    queue.writeBuffer(buffer, at, carry);
  }
}
