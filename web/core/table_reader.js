// Reader of the packed tables the wasm core writes (layout in cpp/wasm/table_writer.h).

const decoder = new TextDecoder();

export class TableReader {
  /** @param {Uint8Array} bytes a copy of the table (never a view on the wasm heap) */
  constructor(bytes) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const count = view.getUint32(0, true);
    const textBytes = view.getUint32(4, true);
    const start = bytes.byteOffset + 8;
    // A Float64Array view needs 8-byte alignment; copies made with slice() start at 0.
    this.numbers =
      start % 8 === 0
        ? new Float64Array(bytes.buffer, start, count)
        : new Float64Array(bytes.buffer.slice(start, start + count * 8));
    this.text = decoder.decode(bytes.subarray(8 + count * 8, 8 + count * 8 + textBytes));
    this.at = 0;
  }

  /** The next number. */
  num() {
    return this.numbers[this.at++];
  }

  /** The next string. */
  str() {
    const start = this.numbers[this.at];
    const end = this.numbers[this.at + 1];
    this.at += 2;
    return this.text.slice(start, end);
  }

  /**
   * `fill(i)` for i below the next number, collected in an array.
   * @template T
   * @param {(index: number) => T} fill
   * @returns {T[]}
   */
  list(fill) {
    /** @type {T[]} */
    const out = new Array(this.num());
    for (let i = 0; i < out.length; i++) out[i] = fill(i);
    return out;
  }
}

/**
 * A findings list as the core writes it (cpp/wasm/header_table.h), as plain objects.
 * @param {TableReader} r
 * @param {import('./tables.js').CoreTables} tables
 * @returns {import('../index.js').Finding[]}
 */
export function readFindings(r, tables) {
  return r.list(() => {
    const code = tables.findingCodes[r.num()];
    const finding = withTensor(r, { code: code.name, severity: code.severity, message: r.str() });
    const format = r.num(); // NotSafetensors: what the file is (0: none)
    if (format !== 0) finding.format = tables.foreignFormats[format - 1].name;
    return finding;
  });
}

/**
 * Adds `tensor` to `finding` when the table says it has one.
 * @param {TableReader} r
 * @param {import('../index.js').Finding} finding
 * @returns {import('../index.js').Finding}
 */
export function withTensor(r, finding) {
  if (r.num() === 1) finding.tensor = r.str();
  return finding;
}
