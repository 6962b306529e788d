// Random mutations of a valid file through the whole wasm + JS path: every call
// settles with a report whose parts agree, and whenever the verdict is "loadable"
// the tensors and metadata equal an independent JSON.parse decoding of the header.
import { expect, test } from 'vitest';
import { openSafetensors, validateSafetensors } from '../../web/index.js';
import { pseudoRandomBytes, writeSafetensors } from '../../tools/write_safetensors.js';

const BASE = writeSafetensors(
  [
    { name: 'emb.w\u00e9ight', dtype: 'F16', shape: [3, 2], data: pseudoRandomBytes(12, 1) },
    { name: '\u{1F600}.bias', dtype: 'F32', shape: [2], data: pseudoRandomBytes(8, 2) },
    { name: 'q.weight', dtype: 'I8', shape: [4], data: pseudoRandomBytes(4, 3) },
    { name: 'step', dtype: 'I64', shape: [], data: pseudoRandomBytes(8, 4) },
    { name: 'e', dtype: 'BF16', shape: [0, 5], data: new Uint8Array(0) },
  ],
  { format: 'pt', 'ss_\u00fcber': 'caf\u00e9 \u{1F600}', note: '"quoted"\n' },
);

function rng(seed) {
  let x = seed >>> 0 || 1;
  return (n) => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x % n;
  };
}

const JSON_BYTES = new TextEncoder().encode('{}[]":,0123456789-.e \\u"');

function mutate(bytes, next) {
  let out = Array.from(bytes);
  const n = Number(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(0, true));
  for (let k = 1 + next(3); k > 0; k--) {
    const at = 8 + next(Math.max(1, n));
    switch (next(6)) {
      case 0:
        out[at] = next(256);
        break;
      case 1:
        out[at] = JSON_BYTES[next(JSON_BYTES.length)];
        break;
      case 2:
        out.splice(at, 0, JSON_BYTES[next(JSON_BYTES.length)], ...(next(2) ? [32] : []));
        break;
      case 3:
        out.splice(at, 1 + next(3));
        break;
      case 4:
        out = out.slice(0, Math.max(0, out.length - 1 - next(16)));
        break;
      default:
        out[next(8)] = next(256);
        break; // the length prefix
    }
  }
  // Keep the length prefix consistent with an edited header most of the time.
  const file = Uint8Array.from(out);
  if (next(4) !== 0 && file.byteLength >= 8) {
    new DataView(file.buffer).setBigUint64(0, BigInt(Math.max(0, n + file.byteLength - bytes.byteLength)), true);
  }
  return file;
}

function independent(bytes) {
  const n = Number(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(8, 8 + n)));
  const { __metadata__: metadata = null, ...entries } = header;
  const tensors = Object.entries(entries).map(([name, e]) => ({
    name,
    dtype: e.dtype,
    shape: e.shape,
    dataOffsets: e.data_offsets,
  }));
  return { metadata, tensors };
}

test('20,000 mutated files: consistent reports; loadable ones match JSON.parse', async () => {
  const next = rng(20261121);
  let loadable = 0;
  const kinds = new Set();
  for (let i = 0; i < 20000; i++) {
    const file = mutate(BASE, next);
    const report = await validateSafetensors(file);
    expect(report.loadable).toBe(report.referenceError === null);
    kinds.add(report.referenceError);
    report.findings.forEach((f, j) => expect(f.severity === 'error').toBe(j === 0 && !report.loadable));
    if (!report.loadable) {
      expect(report.findings[0].code).toBe(report.referenceError);
      continue;
    }
    loadable++;
    const st = await openSafetensors(file);
    const want = independent(file);
    expect(st.metadata).toEqual(want.metadata);
    const got = st.tensors.map(({ name, dtype, shape, dataOffsets }) => ({ name, dtype, shape, dataOffsets }));
    const byName = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    expect(got.sort(byName)).toEqual(want.tensors.sort(byName));
  }
  // The mutations reach both verdicts and most of the reference's error kinds.
  console.log(`mutation test: ${loadable} loadable of 20,000; verdicts seen: ${[...kinds].map(String).join(', ')}`);
  expect(loadable).toBeGreaterThan(200);
  expect(kinds.size).toBeGreaterThanOrEqual(7);
}, 60_000);
