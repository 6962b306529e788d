// The device as toGPU sees it: whether it is lost (GPUDevice.lost settles once, so its answer
// is kept per device), and buffer creation whose out-of-memory and validation errors, reported
// by WebGPU asynchronously through error scopes, become typed errors.
import { SafetensorsError } from '../core/errors.js';

/** @typedef {import('./types.js').GpuDeviceLike} GpuDeviceLike */

/** @type {WeakMap<object, { info: { reason?: string, message?: string } | null, lost: Promise<void> }>} */
const watched = new WeakMap();

/**
 * The device's lost state, watched from the first call on: `info` is set once it is lost;
 * `lost` settles then.
 * @param {GpuDeviceLike} device
 */
export function watchDevice(device) {
  let state = watched.get(device);
  if (state === undefined) {
    const entry = { info: /** @type {{ reason?: string, message?: string } | null} */ (null), lost: Promise.resolve() };
    entry.lost = Promise.resolve(device.lost).then((info) => {
      entry.info = info ?? {};
    });
    watched.set(device, (state = entry));
  }
  return state;
}

/**
 * A SafetensorsError "DeviceLost" when the device is known to be lost.
 * @param {ReturnType<typeof watchDevice>} state
 * @param {string} doing what was being done, for the message
 */
export function throwIfLost(state, doing) {
  if (state.info === null) return;
  const { reason = 'unknown', message = '' } = state.info;
  throw new SafetensorsError(
    'DeviceLost',
    `the GPU device was lost (${reason}${message ? `: ${message}` : ''}) while ${doing}; request a new device and upload again`,
  );
}

/**
 * Makes one buffer; rejects with SafetensorsError "OutOfMemory" when the device cannot hold it,
 * TypeError when WebGPU refuses the descriptor (a usage it does not allow, say). The buffer is
 * destroyed before either rejection.
 * @param {GpuDeviceLike} device
 * @param {{ size: number, usage: number, label: string }} descriptor
 */
export async function createCheckedBuffer(device, descriptor) {
  device.pushErrorScope('validation');
  device.pushErrorScope('out-of-memory');
  const buffer = device.createBuffer(descriptor);
  const [outOfMemory, invalid] = await Promise.all([device.popErrorScope(), device.popErrorScope()]);
  if (outOfMemory === null && invalid === null) return buffer;
  buffer.destroy();
  if (outOfMemory !== null)
    throw new SafetensorsError(
      'OutOfMemory',
      `the GPU device could not allocate ${descriptor.size} bytes for ${descriptor.label}: ${outOfMemory.message}`,
      { tensor: descriptor.label },
    );
  throw new TypeError(`WebGPU refused a buffer for ${descriptor.label}: ${invalid?.message}`);
}
