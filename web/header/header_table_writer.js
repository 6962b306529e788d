// Writes a header table (the sequence of cpp/wasm/header_table.h, in the packed layout of
// cpp/wasm/table_writer.h) for tensors and metadata JS already holds: a sharded model's tensors
// from all its shards, as one model for the card module, which reads it back as it reads the
// core's (decode_header_table). Nothing is serialised as JSON or parsed again.

const encoder = new TextEncoder();

/** Numbers and strings in the packed layout: strings as their UTF-16 range in one text. */
class TableWriter {
  constructor() {
    this.numbers = new Float64Array(1024);
    this.count = 0;
    /** @type {string[]} */
    this.texts = [];
    this.units = 0; // UTF-16 length of the text so far
  }

  /** @param {number} value */
  num(value) {
    if (this.count === this.numbers.length) {
      const grown = new Float64Array(this.numbers.length * 2);
      grown.set(this.numbers);
      this.numbers = grown;
    }
    this.numbers[this.count++] = value;
  }

  /** @param {string} text */
  str(text) {
    this.num(this.units);
    this.texts.push(text);
    this.units += text.length;
    this.num(this.units);
  }

  /** The table: u32 number count, u32 text bytes, the numbers (f64), the UTF-8 text. */
  finish() {
    const text = encoder.encode(this.texts.join(''));
    const out = new Uint8Array(8 + this.count * 8 + text.byteLength);
    const view = new DataView(out.buffer);
    view.setUint32(0, this.count, true);
    view.setUint32(4, text.byteLength, true);
    new Float64Array(out.buffer, 8, this.count).set(this.numbers.subarray(0, this.count));
    out.set(text, 8 + this.count * 8);
    return out;
  }
}

/**
 * The header table of a loadable file holding `tensors` (in that order, their data laid end to
 * end) and `metadata`. No file holds them: its sizes are written as 0 and it has no findings.
 * No embedded hashes are written either: the card reads them from the metadata itself, with
 * the analysis' own definition (cpp/analysis/embedded_hashes.h).
 * @param {{ name: string, dtype: string, shape: number[], exactShape?: bigint[], byteLength: number }[]} tensors
 * @param {Record<string, string> | null} metadata
 * @param {{ name: string, index: number }[]} dtypes the core's dtype table (web/core/tables.js)
 * @returns {Uint8Array}
 */
export function writeHeaderTable(tensors, metadata, dtypes) {
  const dtypeIndex = new Map(dtypes.map((d) => [d.name, d.index]));
  const w = new TableWriter();
  w.num(0); // no reference error
  w.num(0); // file size, header length, data start
  w.num(0);
  w.num(0);
  w.num(0); // findings
  if (metadata === null) {
    w.num(-1);
  } else {
    const entries = Object.entries(metadata);
    w.num(entries.length);
    for (const [key, value] of entries) {
      w.str(key);
      w.str(value);
    }
  }
  w.num(0); // embedded hashes
  w.num(tensors.length);
  let at = 0;
  for (const t of tensors) {
    w.str(t.name);
    const dtype = dtypeIndex.get(t.dtype);
    if (dtype === undefined) throw new TypeError(`unknown dtype ${t.dtype}`);
    w.num(dtype);
    w.num(t.shape.length);
    for (const d of t.shape) w.num(d);
    w.num(at);
    w.num((at += t.byteLength));
    w.num(t.exactShape ? 1 : 0);
    if (t.exactShape) for (const d of t.exactShape) w.str(String(d));
  }
  return w.finish();
}
