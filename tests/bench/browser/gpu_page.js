// The page side of tests/bench/gpu.bench.js: one picked file's tensor "w" (F16) onto the GPU
// four ways, each resolving once the queue is done; every buffer is destroyed after its round.
import { openSafetensors } from '/web/index.js';

const USAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
// F16 → F32 on the GPU: each invocation unpacks one u32 of two halves (WGSL unpack2x16float).
const SHADER = `
@group(0) @binding(0) var<storage, read> halves: array<u32>;
@group(0) @binding(1) var<storage, read_write> floats: array<vec2<f32>>;
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  let i = id.x + id.y * 65536u;
  if (i < arrayLength(&halves)) { floats[i] = unpack2x16float(halves[i]); }
}`;

let st;
let device;
let pipeline;

/** Opens the picked file and makes the device and the conversion pipeline. */
export async function setup(file) {
  st = await openSafetensors(file);
  device = await (await navigator.gpu.requestAdapter()).requestDevice();
  const module = device.createShaderModule({ code: SHADER });
  pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
  return { bytes: st.tensors[0].byteLength, userAgent: navigator.userAgent };
}

/** A new float32 buffer converted on the GPU from `native` (the F16 bytes). */
async function convertOnGpu(native, count) {
  const floats = device.createBuffer({ size: count * 4, usage: USAGE });
  const bindGroup = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [
      { binding: 0, resource: { buffer: native } },
      { binding: 1, resource: { buffer: floats } },
    ],
  });
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bindGroup);
  const groups = Math.ceil(count / 2 / 256);
  pass.dispatchWorkgroups(Math.min(groups, 256), Math.ceil(groups / 256));
  pass.end();
  device.queue.submit([encoder.finish()]);
  await device.queue.onSubmittedWorkDone();
  return floats;
}

const count = () => st.tensors[0].shape[0];

/** Each variant: the buffer(s) it leaves on the GPU, float32 first. */
export const variants = {
  'getTensor + writeBuffer + onSubmittedWorkDone': async () => {
    const values = await st.getTensor('w');
    const buffer = device.createBuffer({ size: values.byteLength, usage: USAGE });
    device.queue.writeBuffer(buffer, 0, values);
    await device.queue.onSubmittedWorkDone();
    return [buffer];
  },
  'toGPU (float32: WASM SIMD on the way)': async () => [(await st.toGPU(device, { usage: USAGE })).get('w').buffer],
  "toGPU { as: 'native' } (F16 bytes, no conversion)": async () => [
    (await st.toGPU(device, { usage: USAGE, as: 'native' })).get('w').buffer,
  ],
  "toGPU { as: 'native' } + WGSL F16→F32 shader": async () => {
    const native = (await st.toGPU(device, { usage: USAGE, as: 'native' })).get('w').buffer;
    return [await convertOnGpu(native, count()), native];
  },
};

/** Runs `name` once: its time in ms (the buffers are destroyed after the clock stops). */
export async function run(name) {
  const start = performance.now();
  const buffers = await variants[name]();
  const ms = performance.now() - start;
  for (const b of buffers) b.destroy();
  return ms;
}

async function readBack(buffer) {
  const staging = device.createBuffer({ size: buffer.size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const encoder = device.createCommandEncoder();
  encoder.copyBufferToBuffer(buffer, 0, staging, 0, buffer.size);
  device.queue.submit([encoder.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const words = new Uint32Array(staging.getMappedRange().slice(0));
  staging.destroy();
  return words;
}

/** Words of every variant's float32 buffer that differ from getTensor's (NaN payloads count). */
export async function differences() {
  const expected = new Uint32Array((await st.getTensor('w')).buffer);
  const out = {};
  for (const [name, make] of Object.entries(variants)) {
    if (name.includes('F16 bytes')) continue; // not float32
    const buffers = await make();
    const words = await readBack(buffers[0]);
    let differ = 0;
    for (let i = 0; i < expected.length; i++) if (words[i] !== expected[i]) differ++;
    out[name] = differ;
    for (const b of buffers) b.destroy();
  }
  return out;
}
