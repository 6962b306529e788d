// toGPU in Chromium on WebGPU (SwiftShader): every buffer read back and compared bit for bit
// with getTensor, for every dtype in both layouts (NaN payloads included); the refusal of a
// tensor over maxBufferSize before anything is made or read; abort, progress, a lost device. A
// pipeline by URL and a Worker: gpu_sources.test.js.
import { describe, expect, test } from 'vitest';
import { FLOAT_KINDS, IN_FILE, PRELUDE, expectSame, gpuPages } from './gpu_page.js';

const { gpuPage } = gpuPages();

describe('toGPU in Chromium (WebGPU on SwiftShader)', () => {
  test('every dtype, default layout and both explicit ones, bit for bit as getTensor gives', async () => {
    const { page, errors } = await gpuPage();
    const out = await page.evaluate(`(async () => {${PRELUDE}
      const floats = st.tensors.filter((t) => !t.dtype.startsWith('F6')).map((t) => t.name);
      return {
        adapter: (await navigator.gpu.requestAdapter()).info.vendor,
        byDefault: await h.uploadAndRead(st, device),
        float32: await h.uploadAndRead(st, device, { as: 'float32', names: floats, chunkBytes: 1000 }),
        native: await h.uploadAndRead(st, device, { as: 'native', chunkBytes: 999 }),
        f6: await st.toGPU(device, { as: 'float32', names: ['t.F16', 't.F6_E2M3'] }).catch((e) => e.code),
      };
    })()`);
    expect(out.byDefault.names).toEqual(IN_FILE.map((t) => t.name));
    for (const { name, dtype } of IN_FILE) {
      expect(out.byDefault.tensors[name].as, name).toBe(FLOAT_KINDS.has(dtype) ? 'float32' : 'native');
      expect(out.byDefault.tensors[name].dtype).toBe(dtype);
      expect(out.native.tensors[name].as).toBe('native');
    }
    expect(Object.keys(out.float32.tensors)).toHaveLength(IN_FILE.filter((t) => !t.dtype.startsWith('F6')).length);
    expectSame(out.byDefault, 'default');
    expectSame(out.float32, 'float32');
    expectSame(out.native, 'native');
    // F16 as float32: 4,099 values, 16,396 bytes; natively 8,198 bytes padded to 8,200.
    expect(out.float32.tensors['t.F16'].byteLength).toBe(4099 * 4);
    expect(out.native.tensors['t.F16'].byteLength).toBe(8200);
    // NaN payloads were compared: the float32 F16 and BF16 buffers hold NaNs of several bit patterns.
    for (const name of ['t.F16', 't.BF16', 't.F8_E5M2']) {
      const words = new Uint32Array(Buffer.from(out.float32.tensors[name].gpu, 'base64').buffer.slice(0));
      const nans = new Set([...words].filter((w) => (w & 0x7f800000) === 0x7f800000 && (w & 0x7fffff) !== 0));
      expect(nans.size, name).toBeGreaterThan(1);
    }
    expect(out.f6).toBe('UnsupportedConversion');
    expect(errors).toEqual([]);
    await page.close();
  });

  test('a tensor over maxBufferSize is refused before any buffer is made or byte read; one over the binding limit is flagged', async () => {
    const { page, errors } = await gpuPage();
    const out = await page.evaluate(`(async () => {${PRELUDE}
      // 64 Mi + 4 F16 values: natively 134,217,736 bytes (over the 128 MiB binding limit), as
      // float32 268,435,472 (over the 256 MiB maxBufferSize). Only the header is real.
      const n = 64 * 1024 * 1024 + 4;
      const json = JSON.stringify({ small: { dtype: 'F32', shape: [4], data_offsets: [0, 16] },
        empty: { dtype: 'F16', shape: [0, 5], data_offsets: [16, 16] },
        big: { dtype: 'F16', shape: [n], data_offsets: [16, 16 + 2 * n] } }).padEnd(256, ' ');
      const head = new Uint8Array(8 + json.length);
      new DataView(head.buffer).setBigUint64(0, BigInt(json.length), true);
      head.set(new TextEncoder().encode(json), 8);
      const source = h.zerosAfter(head, head.length + 16 + 2 * n);
      const big = await lib.openSafetensors(source);
      const readsAtOpen = source.readsPastHead;
      const { device: counted, counts } = h.countingDevice(device);
      // Chromium raises a requiredLimits value below the default to the default: the device has 256 MiB.
      const small = await (await navigator.gpu.requestAdapter()).requestDevice({ requiredLimits: { maxBufferSize: 4096 } });
      const refused = await big.toGPU(counted).then(() => null, (e) => ({ name: e.name, code: e.code, tensor: e.tensor, message: e.message }));
      const after = { created: counts.created, reads: source.readsPastHead - readsAtOpen };
      const native = await big.toGPU(counted, { as: 'native' });
      const flags = [...native].map(([name, t]) => [name, t.byteLength, t.overBindingLimit]);
      for (const t of native.values()) t.buffer.destroy();
      return { refused, after, flags, limits: [device.limits.maxBufferSize, device.limits.maxStorageBufferBindingSize],
        smallLimit: small.limits.maxBufferSize };
    })()`);
    expect(out.limits).toEqual([268435456, 134217728]);
    expect(out.smallLimit).toBe(268435456);
    expect(out.refused).toMatchObject({ name: 'SafetensorsError', code: 'TensorTooLarge', tensor: 'big' });
    expect(out.refused.message).toContain('268435472 bytes');
    expect(out.refused.message).toContain('maxBufferSize of 268435456 bytes');
    expect(out.after).toEqual({ created: 0, reads: 0 });
    expect(out.flags).toEqual([
      ['small', 16, false],
      ['empty', 0, false],
      ['big', 134217736, true],
    ]);
    expect(errors).toEqual([]);
    await page.close();
  });

  test('abort destroys the buffers made so far; progress counts every byte; a lost device is a DeviceLost', async () => {
    const { page, errors } = await gpuPage();
    const out = await page.evaluate(`(async () => {${PRELUDE}
      const outcome = (p) => p.then(() => 'resolved', (e) => e.name + ':' + (e.code ?? ''));
      const names = st.tensors.filter((t) => !t.dtype.startsWith('F6')).map((t) => t.name);
      const calls = [];
      await st.toGPU(device, { names, chunkBytes: 4096, onProgress: (d, t) => calls.push([d, t]) });
      const abort = h.countingDevice(device);
      const controller = new AbortController();
      const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
      const aborted = await outcome(st.toGPU(abort.device, { usage, chunkBytes: 4096, signal: controller.signal,
        onProgress: (d) => d > 20000 && controller.abort() }));
      // A destroyed buffer cannot be copied from: WebGPU says so through a validation error.
      device.pushErrorScope('validation');
      const target = device.createBuffer({ size: 16, usage: GPUBufferUsage.COPY_DST });
      const encoder = device.createCommandEncoder();
      encoder.copyBufferToBuffer(abort.counts.made[0], 0, target, 0, 16);
      device.queue.submit([encoder.finish()]);
      const copyError = (await device.popErrorScope())?.message ?? null;
      const missing = h.countingDevice(device);
      const notFound = await outcome(st.toGPU(missing.device, { names: ['t.F16', 'nope'] }));
      const lostDuring = h.countingDevice(await h.newDevice());
      const during = await outcome(st.toGPU(lostDuring.device, { chunkBytes: 4096,
        onProgress: (d) => d > 20000 && lostDuring.real.destroy() }));
      const before = await outcome(st.toGPU(lostDuring.device, { names: ['t.F16'] }));
      return { calls, aborted, abortCounts: [abort.counts.created, abort.counts.destroyed], copyError, notFound,
        missingCreated: missing.counts.created, during, before, duringCounts: [lostDuring.counts.created, lostDuring.counts.destroyed] };
    })()`);
    const total = IN_FILE.filter((t) => !t.dtype.startsWith('F6')).reduce((sum, t) => sum + t.byteLength, 0);
    expect(out.calls.at(-1)).toEqual([total, total]);
    expect(out.calls.every(([d, t], i) => t === total && (i === 0 || d >= out.calls[i - 1][0]))).toBe(true);
    expect(out.aborted).toMatch(/^AbortError:/);
    expect(out.abortCounts[0]).toBeGreaterThan(1);
    expect(out.abortCounts[1]).toBe(out.abortCounts[0]);
    expect(out.copyError).toMatch(/destroyed/i);
    expect(out.notFound).toBe('SafetensorsError:TensorNotFound');
    expect(out.missingCreated).toBe(0);
    expect(out.during).toBe('SafetensorsError:DeviceLost');
    expect(out.before).toBe('SafetensorsError:DeviceLost');
    expect(out.duringCounts[1]).toBe(out.duringCounts[0]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
