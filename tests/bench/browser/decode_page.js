// Runs inside Chromium (driven by tests/bench/browser_decode.bench.js): decodes the F16
// tensor "w" of the picked file in several ways, alternating, and returns the timings.
import { openSafetensors, validateSafetensors } from '../../../web/index.js';
import { blobChunks } from '../../../web/source/blob_source.js';
import { ALLOCATION_FLOOR, OUR_READS, READS_AND_FLOOR, firstTouch } from '../allocation_floor.js';
import { plainScan16 } from '../plain_scan.js';
import { roundOrder } from '../round_order.js';

function f16LookupTable() {
  const table = new Float32Array(65536);
  for (let c = 0; c < 65536; c++) {
    const e = (c >> 10) & 31;
    const m = c & 1023;
    const v = e === 0 ? m * 2 ** -24 : e === 31 ? (m ? NaN : Infinity) : (1 + m / 1024) * 2 ** (e - 15);
    table[c] = c & 0x8000 ? -v : v;
  }
  return table;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Times each variant `rounds` times after `warmup` rounds, in a new (seeded) order each round:
 * in a fixed rotation, the collections of one variant's garbage (these allocate 32-96 MiB
 * each) land on the same next variant every round.
 * @param {Record<string, () => Promise<unknown>>} variants each timed whole, unless it resolves
 *   to `{ ms }`: then to that (a variant with untimed setup)
 */
async function alternate(variants, rounds, warmup) {
  const shuffled = roundOrder(20261123);
  const times = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  for (let round = 0; round < warmup + rounds; round++) {
    for (const [name, fn] of shuffled(Object.entries(variants))) {
      const start = performance.now();
      const result = await fn();
      const ms = /** @type {any} */ (result)?.ms ?? performance.now() - start;
      if (round >= warmup) times[name].push(ms);
    }
  }
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
}

window.runBench = async (rounds, warmup) => {
  const file = document.querySelector('input').files[0];
  const st = await openSafetensors(file);
  const tensor = st.tensors.find((t) => t.name === 'w');
  const begin = st.dataStart + tensor.dataOffsets[0];
  const end = st.dataStart + tensor.dataOffsets[1];
  const lut = f16LookupTable();
  const reused = new Float32Array((end - begin) / 2);
  const variants = {
    'getTensor (Blob stream → wasm SIMD → Float32Array)': () => st.getTensor('w'),
    'getTensor into a reused Float32Array': () => st.getTensor('w', { into: reused }),
    'plain JS: slice().arrayBuffer() + lookup table into a reused Float32Array': async () => {
      const codes = new Uint16Array(await file.slice(begin, end).arrayBuffer());
      for (let i = 0; i < codes.length; i++) reused[i] = lut[codes[i]];
      return reused;
    },
    'plain JS: slice().arrayBuffer() + 64K lookup table': async () => {
      const codes = new Uint16Array(await file.slice(begin, end).arrayBuffer());
      const out = new Float32Array(codes.length);
      for (let i = 0; i < codes.length; i++) out[i] = lut[codes[i]];
      return out;
    },
    'plain JS: slice().stream() + 64K lookup table': async () => {
      const out = new Float32Array((end - begin) / 2);
      let at = 0;
      let carry = -1;
      for await (const chunk of file.slice(begin, end).stream()) {
        let i = 0;
        if (carry >= 0) {
          out[at++] = lut[carry | (chunk[0] << 8)];
          i = 1;
          carry = -1;
        }
        const pairs = (chunk.byteLength - i) >> 1;
        if (((chunk.byteOffset + i) & 1) === 0) {
          const codes = new Uint16Array(chunk.buffer, chunk.byteOffset + i, pairs);
          for (let k = 0; k < pairs; k++) out[at++] = lut[codes[k]];
        } else {
          for (let k = 0; k < pairs; k++) out[at++] = lut[chunk[i + 2 * k] | (chunk[i + 2 * k + 1] << 8)];
        }
        if ((chunk.byteLength - i) & 1) carry = chunk[chunk.byteLength - 1];
      }
      return out;
    },
    // Each piece touched, as an upload (writeBuffer) or a reduction would use it.
    'streamTensor (pieces in one reused array)': async () => {
      let n = 0;
      for await (const { values } of st.streamTensor('w')) n += values.length + values[0] * 0;
      return n;
    },
    'read only: slice().stream()': async () => {
      let n = 0;
      for await (const chunk of file.slice(begin, end).stream()) n += chunk.byteLength;
      return n;
    },
    'read only: slice().arrayBuffer()': () => file.slice(begin, end).arrayBuffer(),
    // getTensor's own reads with nothing done with the chunks: the cheapest read of the three.
    [OUR_READS]: async () => {
      let n = 0;
      for await (const chunk of blobChunks(file, begin, end - begin, true)) n += chunk.byteLength;
      return n;
    },
    [ALLOCATION_FLOOR]: async () => firstTouch(new Float32Array((end - begin) / 2)),
    // The two above on one thread, as a decode into a new array has them: whether they overlap.
    [READS_AND_FLOOR]: async () => {
      const out = new Float32Array((end - begin) / 2);
      let at = 0;
      for await (const chunk of blobChunks(file, begin, end - begin, true)) {
        firstTouch(out.subarray(Math.ceil(at / 2048) * 1024, (at + chunk.byteLength) / 2));
        at += chunk.byteLength;
      }
      return out;
    },
  };
  if (typeof Float16Array === 'function') {
    variants['native Float16Array → Float32Array (after slice().arrayBuffer())'] = async () =>
      new Float32Array(new Float16Array(await file.slice(begin, end).arrayBuffer()));
  }
  // Same values from every decoding variant.
  const ours = await st.getTensor('w');
  for (const [name, fn] of Object.entries(variants)) {
    if (!name.startsWith('read only') && !name.startsWith('streamTensor') && name !== ALLOCATION_FLOOR) {
      const other = await fn();
      for (let i = 0; i < ours.length; i += 997) {
        if (!Object.is(ours[i], other[i])) throw new Error(`${name} differs at ${i}`);
      }
    }
  }
  return { bytes: end - begin, userAgent: navigator.userAgent, medians: await alternate(variants, rounds, warmup) };
};
// The data scan of the same file: validateSafetensors with scanData against plain JS.
window.runScanBench = async (rounds, warmup) => {
  const file = document.querySelector('input').files[0];
  const st = await openSafetensors(file);
  const [begin, end] = st.tensors[0].dataOffsets.map((o) => o + st.dataStart);
  const plain = async () => plainScan16(new Uint16Array(await file.slice(begin, end).arrayBuffer()), 'F16');
  const ours = (await validateSafetensors(file, { scanData: true })).dataScan.tensors[0];
  const check = await plain();
  for (const key of ['nan', 'posInf', 'negInf', 'allZero']) {
    if (ours[key] !== check[key]) throw new Error(`scan results differ in ${key}`);
  }
  const variants = {
    'validateSafetensors(file, { scanData: true })': () => validateSafetensors(file, { scanData: true }),
    'plain JS: slice().arrayBuffer() + Uint16Array loop': plain,
    // Each piece touched, as an upload (writeBuffer) or a reduction would use it.
    'streamTensor (pieces in one reused array)': async () => {
      let n = 0;
      for await (const { values } of st.streamTensor('w')) n += values.length + values[0] * 0;
      return n;
    },
    'read only: slice().stream()': async () => {
      let n = 0;
      for await (const chunk of file.slice(begin, end).stream()) n += chunk.byteLength;
      return n;
    },
  };
  return { bytes: end - begin, medians: await alternate(variants, rounds, warmup) };
};
document.body.dataset.ready = '1';
