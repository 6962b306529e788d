// What toGPU will make before it makes anything: for each tensor asked for, the layout its
// buffer holds ('float32' or 'native'), the buffer's size, and the checks against the device's
// limits (a tensor over maxBufferSize refuses the whole call, before any buffer exists).
import { SafetensorsError } from '../core/errors.js';
import { planTensorRead } from '../tensors/plan.js';

// GPUBufferUsage's flags, fixed by the WebGPU specification (https://www.w3.org/TR/webgpu/#buffer-usage):
// the default usage is STORAGE | COPY_DST, usable without the global (a Node caller has none).
export const STORAGE = 0x80;
export const COPY_DST = 0x08;

/**
 * One buffer to make: tensor `info` read `as` (float32: what getTensor({ as: 'float32' }) gives;
 * native: its bytes), into a buffer of `byteLength` bytes (a multiple of 4).
 * @typedef {{ info: import('../index.js').TensorInfo, as: 'float32' | 'native', byteLength: number,
 *   overBindingLimit: boolean }} GpuPlan
 */

/**
 * 'float32' for float kinds (getTensor's native array is a Float32Array or Float64Array: F16,
 * BF16, the F8 kinds, F4, F32, C64, F64), 'native' for integers, BOOL and the packed F6 kinds.
 * @param {import('../index.js').TensorInfo} info
 * @param {import('../core/tables.js').DtypeRow} row
 */
function defaultLayout(info, row) {
  const { ArrayType } = planTensorRead(info, row, 0, { as: 'native' });
  return ArrayType === Float32Array || ArrayType === Float64Array ? 'float32' : 'native';
}

/**
 * The plan of every tensor in `names` (every tensor of the reader without), in that order,
 * checked against `limits`; throws before anything is made.
 * @param {import('../index.js').TensorInfo[]} tensors the reader's tensors
 * @param {import('../core/tables.js').DtypeRow[]} dtypes the core's dtype table
 * @param {unknown} names options.names as given
 * @param {unknown} as options.as as given
 * @param {{ maxBufferSize: number, maxStorageBufferBindingSize: number }} limits the device's
 * @param {(name: string) => Error} notFound the error of a name that is not there
 * @returns {GpuPlan[]}
 */
export function planUploads(tensors, dtypes, names, as, limits, notFound) {
  if (as !== undefined && as !== 'float32' && as !== 'native')
    throw new TypeError(`options.as must be 'float32' or 'native', got ${String(as)}`);
  if (names !== undefined && (!Array.isArray(names) || !names.every((n) => typeof n === 'string')))
    throw new TypeError('options.names must be an array of tensor names');
  const byName = new Map(tensors.map((t) => [t.name, t]));
  const rowOf = new Map(dtypes.map((d) => [d.name, d]));
  const wanted = names === undefined ? tensors.map((t) => t.name) : [...new Set(names)];
  return wanted.map((name) => {
    const info = byName.get(name);
    if (info === undefined) throw notFound(name);
    const row = /** @type {import('../core/tables.js').DtypeRow} */ (rowOf.get(info.dtype));
    const layout = as ?? defaultLayout(info, row);
    // planTensorRead refuses what has no float32 conversion (F6) with UnsupportedConversion.
    const plan = planTensorRead(info, row, 0, { as: layout === 'native' ? 'raw' : 'float32' });
    const byteLength =
      layout === 'native' ? Math.ceil(plan.byteLength / 4) * 4 : plan.length * Float32Array.BYTES_PER_ELEMENT;
    if (byteLength > limits.maxBufferSize)
      throw new SafetensorsError(
        'TensorTooLarge',
        `tensor ${JSON.stringify(name)} needs a GPU buffer of ${byteLength} bytes (${layout}), more than this device's maxBufferSize of ${limits.maxBufferSize} bytes; request a device with a higher requiredLimits.maxBufferSize (up to the adapter's), or upload it ${layout === 'float32' ? "with { as: 'native' }" : 'in parts'}`,
        { tensor: name },
      );
    return { info, as: layout, byteLength, overBindingLimit: byteLength > limits.maxStorageBufferBindingSize };
  });
}
