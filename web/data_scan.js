// The optional data scan of validateSafetensors: streams the data section once, in
// file order, feeding each tensor's bytes to the core's scanner through a bounded
// heap buffer, and turns the counts into findings.
import { chunksUntilAborted, throwIfAborted } from './errors.js';

/** Bytes copied into the wasm heap per scanner call. */
export const SCAN_SCRATCH_BYTES = 1 << 20;

const quote = (name) => JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}...` : name);

function scanFindings(results) {
  const findings = [];
  const nonFinite = results.filter((r) => r.nan + r.posInf + r.negInf > 0);
  if (nonFinite.length > 0) {
    const [first] = nonFinite;
    const n = nonFinite.length;
    findings.push({
      code: 'NonFiniteValues',
      severity: 'warning',
      message: `${n} tensor${n === 1 ? ' holds' : 's hold'} NaN or infinite values (first: ${quote(first.name)}, ` +
        `${first.nan} NaN, ${first.posInf} +inf, ${first.negInf} -inf); computations with them give NaN. ` +
        'The weights are damaged or training diverged: check the source of the file',
      tensor: first.name,
    });
  }
  const zero = results.filter((r) => r.allZero);
  if (zero.length > 0) {
    const n = zero.length;
    findings.push({
      code: 'AllZeroTensor',
      severity: 'info',
      message: `${n} tensor${n === 1 ? ' is' : 's are'} all zeros (first: ${quote(zero[0].name)}); normal for some ` +
        'biases and buffers, but a weight matrix of zeros was probably not saved properly',
      tensor: zero[0].name,
    });
  }
  return findings;
}

// Feeds byte pieces to the core's scanner, one tensor after another.
class TensorWalker {
  constructor(core, report, results) {
    this.core = core;
    this.tensors = report.tensors;
    this.dtypes = report.dtypes;
    this.results = results;
    this.index = -1;
    this.left = 0; // bytes of the current tensor not yet fed
    this.ptr = core._malloc(SCAN_SCRATCH_BYTES);
    if (this.ptr === 0) throw new RangeError('could not allocate the scan buffer in the wasm heap');
    this.scanner = new core._HeapScanner(); // this scan's own state: scans may run concurrently
    this.next();
  }

  // Moves to the next tensor that has bytes (empty tensors keep their zero counts).
  next() {
    do this.index++;
    while (this.index < this.tensors.length && this.tensors[this.index].byteLength === 0);
    if (this.index >= this.tensors.length) return;
    const t = this.tensors[this.index];
    this.left = t.byteLength;
    this.scanner.begin(this.dtypes.indexOf(t.dtype));
  }

  finish() {
    const [nan, posInf, negInf, nonzero] = this.scanner.counts();
    Object.assign(this.results[this.index], { nan, posInf, negInf, allZero: nonzero === 0 });
    this.next();
  }

  push(chunk) {
    const { core } = this;
    for (let at = 0; at < chunk.byteLength;) {
      const n = Math.min(this.left, chunk.byteLength - at, SCAN_SCRATCH_BYTES);
      core.HEAPU8.set(chunk.subarray(at, at + n), this.ptr);
      this.scanner.feed(this.ptr, n);
      at += n;
      this.left -= n;
      if (this.left === 0) this.finish();
    }
  }

  free() {
    this.scanner.delete();
    this.core._free(this.ptr);
  }
}

/**
 * Scans every tensor of a loadable file's report.
 * @returns {Promise<{ dataScan: { bytes: number, tensors: object[] }, findings: object[] }>}
 */
export async function scanData(core, source, report, { signal, onProgress } = {}) {
  const { tensors, dataStart } = report;
  const total = tensors.length === 0 ? 0 : tensors[tensors.length - 1].dataOffsets[1];
  const results = tensors.map((t) => ({ name: t.name, dtype: t.dtype, nan: 0, posInf: 0, negInf: 0, allZero: false }));
  const walker = new TensorWalker(core, report, results);
  let done = 0;
  try {
    if (total > 0) {
      for await (const chunk of chunksUntilAborted(source.chunks(dataStart, total), signal)) {
        throwIfAborted(signal);
        walker.push(chunk);
        done += chunk.byteLength;
        onProgress?.(done, total);
        throwIfAborted(signal); // before the next chunk is asked for
      }
    } else {
      onProgress?.(0, 0);
    }
  } finally {
    walker.free();
  }
  return { dataScan: { bytes: total, tensors: results }, findings: scanFindings(results) };
}
