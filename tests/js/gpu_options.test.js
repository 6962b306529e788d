// toGPU's argument checks in Node (no WebGPU here): a missing device, bad options and unknown
// names are refused before the device is touched. The uploads themselves: tests/browser/gpu.test.js.
import { expect, test } from 'vitest';
import { openSafetensors } from '../../web/index.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';

const FILE = writeSafetensors([{ name: 'w', dtype: 'F16', shape: [3], data: new Uint8Array(6) }]);

/** A device whose every use fails the test: the checks must come first. */
function untouchedDevice() {
  const fail = () => {
    throw new Error('the device was used');
  };
  return {
    limits: { maxBufferSize: 1 << 28, maxStorageBufferBindingSize: 1 << 27 },
    queue: { writeBuffer: fail, onSubmittedWorkDone: fail },
    lost: new Promise(() => {}),
    createBuffer: fail,
    pushErrorScope: fail,
    popErrorScope: fail,
  };
}

test('toGPU refuses a missing device, bad options and unknown names before using the device', async () => {
  const st = await openSafetensors(FILE);
  const device = untouchedDevice();
  await expect(st.toGPU(/** @type {any} */ ({}))).rejects.toThrow(/needs a GPUDevice/);
  await expect(st.toGPU(/** @type {any} */ (undefined))).rejects.toBeInstanceOf(TypeError);
  await expect(st.toGPU(device, /** @type {any} */ ({ as: 'raw' }))).rejects.toThrow(/'float32' or 'native'/);
  await expect(st.toGPU(device, { usage: 0x80 })).rejects.toThrow(/COPY_DST/);
  await expect(st.toGPU(device, { usage: 1.5 })).rejects.toBeInstanceOf(TypeError);
  await expect(st.toGPU(device, /** @type {any} */ ({ names: 'w' }))).rejects.toThrow(/array of tensor names/);
  await expect(st.toGPU(device, { names: ['w', 'nope'] })).rejects.toMatchObject({ code: 'TensorNotFound' });
  const small = { ...device, limits: { maxBufferSize: 8, maxStorageBufferBindingSize: 8 } };
  // F16 [3] as float32 needs 12 bytes: over a maxBufferSize of 8; natively 6 bytes padded to 8 would fit.
  await expect(st.toGPU(small)).rejects.toMatchObject({ code: 'TensorTooLarge', tensor: 'w' });
  await expect(st.toGPU(small)).rejects.toThrow(/12 bytes .*maxBufferSize of 8 bytes/);
});
