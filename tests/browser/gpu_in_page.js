// Helpers the toGPU tests import in the page (served from /tests/browser/): a device on
// SwiftShader, a buffer read back through a MAP_READ copy, a device wrapper that counts the
// buffers made and destroyed, and each uploaded buffer beside what getTensor gives.

/** A new device (an adapter makes one device only). */
export async function newDevice() {
  const adapter = await navigator.gpu.requestAdapter();
  if (!adapter) throw new Error('no WebGPU adapter: Chromium needs the WebGPU flags (tests/browser/chromium.js)');
  return adapter.requestDevice();
}

/** The bytes of `buffer` (COPY_SRC), copied into a MAP_READ buffer and mapped. */
export async function readBack(device, buffer, size = buffer.size) {
  const staging = device.createBuffer({ size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const encoder = device.createCommandEncoder();
  encoder.copyBufferToBuffer(buffer, 0, staging, 0, size);
  device.queue.submit([encoder.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const bytes = new Uint8Array(staging.getMappedRange().slice(0));
  staging.destroy();
  return bytes;
}

/** `device` as toGPU uses it, counting buffers made and destroyed (the real ones are in `made`). */
export function countingDevice(device) {
  const counts = { created: 0, destroyed: 0, made: [] };
  const wrapped = {
    limits: device.limits,
    queue: device.queue,
    lost: device.lost,
    pushErrorScope: (filter) => device.pushErrorScope(filter),
    popErrorScope: () => device.popErrorScope(),
    createBuffer(descriptor) {
      const buffer = device.createBuffer(descriptor);
      counts.created++;
      counts.made.push(buffer);
      const destroy = buffer.destroy.bind(buffer);
      buffer.destroy = () => {
        counts.destroyed++;
        destroy();
      };
      return buffer;
    },
  };
  return { device: wrapped, real: device, counts };
}

const base64 = (bytes) => btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(''));

/** What a buffer of `as` must hold: getTensor's float32 array, or the raw bytes padded to 4. */
async function expectedBytes(reader, name, as) {
  if (as === 'float32') {
    const values = await reader.getTensor(name, { as: 'float32' });
    return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  }
  const raw = await reader.getTensor(name, { as: 'raw' });
  const padded = new Uint8Array(Math.ceil(raw.byteLength / 4) * 4);
  padded.set(raw);
  return padded;
}

/**
 * Uploads with `options` (usage gets COPY_SRC added) and answers, per tensor: its entry's
 * fields, the buffer read back and getTensor's bytes, both base64.
 */
export async function uploadAndRead(reader, device, options = {}) {
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
  const uploaded = await reader.toGPU(device, { usage, ...options });
  const out = {};
  for (const [name, entry] of uploaded) {
    const gpu = await readBack(device, entry.buffer);
    out[name] = {
      as: entry.as,
      dtype: entry.dtype,
      shape: entry.shape,
      byteLength: entry.byteLength,
      size: entry.buffer.size,
      overBindingLimit: entry.overBindingLimit,
      gpu: base64(gpu),
      expected: base64(await expectedBytes(reader, name, entry.as)),
    };
    entry.buffer.destroy();
  }
  return { names: [...uploaded.keys()], tensors: out };
}

/** A ByteReader of `size` bytes: `head` first, zeros after; `reads` counts reads past `head`. */
export function zerosAfter(head, size) {
  const reader = {
    size,
    readsPastHead: 0,
    async read(offset, length) {
      const bytes = new Uint8Array(length);
      if (offset < head.byteLength) bytes.set(head.subarray(offset, offset + length));
      if (offset + length > head.byteLength) reader.readsPastHead++;
      return bytes;
    },
  };
  return reader;
}
