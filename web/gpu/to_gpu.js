// toGPU: tensors of an opened file, a sharded model or a pipeline's component streamed into
// WebGPU buffers, one tensor after another in the order asked, each through a bounded chunk
// (web/gpu/upload.js). Everything is planned and checked first (web/gpu/gpu_plan.js); on any
// failure or abort, the buffers made so far are destroyed.
import { throwIfAborted, untilAborted } from '../core/abort.js';
import { tensorNotFound } from '../core/errors.js';
import { initSafetensors } from '../core/modules.js';
import { checkOptions } from '../file/options.js';
import { COPY_DST, STORAGE, planUploads } from './gpu_plan.js';
import { createCheckedBuffer, throwIfLost, watchDevice } from './device_state.js';
import { uploadTensor } from './upload.js';

/**
 * @param {unknown} device
 * @returns {asserts device is import('./types.js').GpuDeviceLike}
 */
function checkDevice(device) {
  const d = /** @type {any} */ (device);
  if (
    d === null ||
    typeof d !== 'object' ||
    typeof d.createBuffer !== 'function' ||
    typeof d.queue?.writeBuffer !== 'function'
  )
    throw new TypeError('toGPU needs a GPUDevice (from navigator.gpu.requestAdapter() then adapter.requestDevice())');
}

/**
 * @param {Pick<import('../index.js').TensorReader, 'streamTensor'> & { tensors: import('../index.js').TensorInfo[] }} reader
 * @param {unknown} device
 * @param {import('./types.js').ToGpuOptions} [options]
 * @param {(name: string) => Error} [notFound] the error of a name that is not there (default TensorNotFound)
 * @returns {Promise<Map<string, import('./types.js').GpuTensor<any>>>}
 */
export async function toGPU(reader, device, options = {}, notFound = (name) => tensorNotFound(name, reader.tensors)) {
  checkOptions(options);
  checkDevice(device);
  const { names, as, usage = STORAGE | COPY_DST, signal, onProgress, chunkBytes } = options;
  if (!Number.isSafeInteger(usage) || usage <= 0) throw new TypeError('options.usage must be GPUBufferUsage flags');
  if ((usage & COPY_DST) === 0)
    throw new TypeError(
      'options.usage must include GPUBufferUsage.COPY_DST: the tensors are written with queue.writeBuffer',
    );
  const core = await initSafetensors();
  throwIfAborted(signal);
  const plans = planUploads(reader.tensors, core.tables.dtypes, names, as, device.limits, notFound);
  const state = watchDevice(device);
  await Promise.resolve(); // a device lost before this call has told us by now
  throwIfLost(state, 'starting the upload');
  const total = plans.reduce((sum, p) => sum + p.info.byteLength, 0);
  let before = 0; // bytes of the tensors done
  /** @type {Map<string, import('./types.js').GpuTensor<any>>} */
  const result = new Map();
  /** @type {{ destroy(): void }[]} */
  const made = [];
  try {
    for (const plan of plans) {
      const { name, dtype, shape } = plan.info;
      // Not cut short by an abort: the buffer is made at once and must be kept to be destroyed.
      const buffer = await createCheckedBuffer(device, { size: plan.byteLength, usage, label: name });
      made.push(buffer);
      throwIfAborted(signal);
      throwIfLost(state, `making the buffer of ${JSON.stringify(name)}`);
      await uploadTensor(device, buffer, reader, plan, {
        signal,
        chunkBytes,
        onBytes: (done) => onProgress?.(before + done, total),
        checkDevice: () => throwIfLost(state, `uploading ${JSON.stringify(name)}`),
      });
      before += plan.info.byteLength;
      const { byteLength, overBindingLimit } = plan;
      result.set(name, { buffer, dtype, shape, as: plan.as, byteLength, overBindingLimit });
    }
    if (plans.length === 0) onProgress?.(0, 0);
    // Resolved once the GPU holds every byte; a device lost meanwhile ends this wait too.
    await untilAborted(Promise.race([device.queue.onSubmittedWorkDone(), state.lost]), signal);
    throwIfLost(state, 'finishing the upload');
    return result;
  } catch (error) {
    for (const buffer of made) buffer.destroy();
    throw error;
  }
}
