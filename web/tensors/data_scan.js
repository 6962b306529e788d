// The optional data scan of validateSafetensors: streams the data section once, in file
// order, feeding each tensor's bytes to the core's scanner through a bounded heap buffer.
// The counts and the findings (NonFiniteValues, AllZeroTensor) come from the core.
import { readRanges } from '../source/read_ranges.js';
import { TableReader, readFindings } from '../core/table_reader.js';

/** Bytes copied into the wasm heap per scanner call. */
export const SCAN_SCRATCH_BYTES = 1 << 20;

/** @typedef {ReturnType<typeof import('../header/header_table.js').decodeHeaderTable>} HeaderTable */
/** @typedef {import('../index.js').TensorScan} TensorScan */

// Feeds byte pieces to the core's scanner, one tensor after another.
class TensorWalker {
  /**
   * @param {import('../core/wasm_module.js').Core} core
   * @param {import('../wasm/safetensors_core.js').HeapScanner} scanner
   * @param {number} ptr the heap buffer (SCAN_SCRATCH_BYTES) pieces are copied into
   * @param {HeaderTable} report
   * @param {TensorScan[]} results filled tensor by tensor
   */
  constructor(core, scanner, ptr, report, results) {
    this.module = core.module;
    this.scanner = scanner;
    this.ptr = ptr;
    this.tensors = report.tensors;
    this.dtypeIndex = report.dtypeIndex;
    this.results = results;
    this.index = -1;
    this.left = 0; // bytes of the current tensor not yet fed
    this.next();
  }

  // Moves to the next tensor that has bytes (empty tensors keep their zero counts).
  next() {
    do this.index++;
    while (this.index < this.tensors.length && this.tensors[this.index].byteLength === 0);
    if (this.index >= this.tensors.length) return;
    this.left = this.tensors[this.index].byteLength;
    this.scanner.begin(this.index, this.dtypeIndex[this.index]);
  }

  finish() {
    const [nan, posInf, negInf, allZero] = this.scanner.end();
    Object.assign(this.results[this.index], { nan, posInf, negInf, allZero: allZero === 1 });
    this.next();
  }

  /** @param {Uint8Array} chunk the next bytes of tensor data */
  push(chunk) {
    for (let at = 0; at < chunk.byteLength;) {
      const n = Math.min(this.left, chunk.byteLength - at, SCAN_SCRATCH_BYTES);
      this.module.HEAPU8.set(chunk.subarray(at, at + n), this.ptr);
      this.scanner.feed(this.ptr, n);
      at += n;
      this.left -= n;
      if (this.left === 0) this.finish();
    }
  }
}

/**
 * Scans every tensor of a loadable file's report. With `hashing` (a hash pass over the file
 * or its data section), the same read feeds the hashes too.
 * @param {import('../core/wasm_module.js').Core} core
 * @param {Pick<import('../source/byte_source.js').ByteSource, 'chunks'>} source
 * @param {HeaderTable} report
 * @param {{ signal?: AbortSignal, onProgress?: (done: number, total: number) => void }} options
 * @param {{ ranges: [number, number][], push(chunk: Uint8Array, at: number): Promise<void> } | null} [hashing]
 * @returns {Promise<{ dataScan: import('../index.js').DataScan, findings: import('../index.js').Finding[] }>}
 */
export async function scanData(core, source, report, options, hashing = null) {
  const { tensors, dataStart } = report;
  const total = tensors.length === 0 ? 0 : tensors[tensors.length - 1].dataOffsets[1];
  /** @type {TensorScan[]} */
  const results = tensors.map((t) => ({ name: t.name, dtype: t.dtype, nan: 0, posInf: 0, negInf: 0, allZero: false }));
  const scanner = core.call((m) => new m._HeapScanner()); // this scan's own state: scans may run concurrently
  let ptr = 0;
  try {
    ptr = core.malloc(SCAN_SCRATCH_BYTES, 'the data scan buffer');
    const walker = core.call(() => new TensorWalker(core, scanner, ptr, report, results));
    const scan = (/** @type {Uint8Array} */ chunk, /** @type {number} */ at) => {
      const from = Math.max(0, dataStart - at);
      const to = Math.min(chunk.byteLength, dataStart + total - at);
      if (from < to) core.call(() => walker.push(chunk.subarray(from, to)));
    };
    if (hashing) {
      await readRanges(source, hashing.ranges, options, async (chunk, at) => {
        scan(chunk, at);
        await hashing.push(chunk, at);
      });
    } else {
      await readRanges(source, [[dataStart, total]], options, scan);
    }
    const table = core.call(() => scanner.findings((/** @type {number} */ i) => tensors[i].name).slice());
    return {
      dataScan: { bytes: total, tensors: results },
      findings: readFindings(new TableReader(table), core.tables),
    };
  } finally {
    if (ptr) core.free(ptr);
    core.release(() => scanner.delete());
  }
}
