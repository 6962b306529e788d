// Compiled by tsc (make test) against web/index.d.ts: toGPU's documented usage on a file, a
// sharded model and a pipeline's component; misuse must not type-check.
import {
  openSafetensors,
  openSafetensorsIndex,
  openSafetensorsPipeline,
  SafetensorsError,
  type GpuBufferLike,
  type GpuDeviceLike,
  type GpuTensor,
} from '../../web/index.js';

// What @webgpu/types' GPUBuffer adds (a part of it): the result keeps the device's buffer type.
interface MyBuffer extends GpuBufferLike {
  mapAsync(mode: number): Promise<undefined>;
}

export async function gpuUsage(file: Blob, device: GpuDeviceLike<MyBuffer>, picked: File[]): Promise<number> {
  const st = await openSafetensors(file);
  const controller = new AbortController();
  const tensors: Map<string, GpuTensor<MyBuffer>> = await st.toGPU(device, {
    names: ['w'],
    as: 'native',
    usage: 0x80 | 0x08 | 0x04,
    signal: controller.signal,
    onProgress: (done: number, total: number) => console.log(done / total),
    chunkBytes: 1 << 20,
  });
  const w = tensors.get('w');
  if (w) {
    const mapped: Promise<undefined> = w.buffer.mapAsync(1);
    const layout: 'float32' | 'native' = w.as;
    const big: boolean = w.overBindingLimit;
    console.log(mapped, layout, big, w.dtype, w.shape, w.byteLength);
  }
  try {
    await st.toGPU(device);
  } catch (e) {
    if (e instanceof SafetensorsError && (e.code === 'TensorTooLarge' || e.code === 'DeviceLost'))
      console.log(e.message);
  }
  const model = await openSafetensorsIndex(picked);
  const all = await model.toGPU(device, { as: 'float32' });
  const pipeline = await openSafetensorsPipeline(picked);
  for (const component of pipeline.components) await component.model?.toGPU(device);
  // @ts-expect-error: 'raw' is getTensor's; a GPU buffer holds float32 or native
  await st.toGPU(device, { as: 'raw' });
  // @ts-expect-error: a device is needed
  await st.toGPU({});
  return all.size;
}
