// Reader of the packed tables the wasm core writes (layout in cpp/wasm/table_writer.h).

const decoder = new TextDecoder();

/**
 * Text bytes per decoded piece. One string of a whole table's text (800 KB for 20,000 tensor
 * names) goes to V8's large-object space, fresh memory each time: 4.3 ms to decode on the
 * project's machine, against 0.1 ms as 32 KiB pieces (BENCHMARKS.md, "Opening a header").
 */
export const TEXT_PIECE_BYTES = 32 * 1024;

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
    const text = bytes.subarray(8 + count * 8, 8 + count * 8 + textBytes);
    /** The text, decoded in pieces of about TEXT_PIECE_BYTES, each cut before a UTF-8 lead byte. */
    this.pieces = /** @type {string[]} */ ([]);
    /** Where each piece starts, in UTF-16 units of the whole text. */
    this.pieceStarts = /** @type {number[]} */ ([]);
    for (let at = 0, units = 0; at < text.byteLength;) {
      let end = Math.min(text.byteLength, at + TEXT_PIECE_BYTES);
      while (end < text.byteLength && (text[end] & 0xc0) === 0x80) end++;
      const piece = decoder.decode(text.subarray(at, end));
      this.pieces.push(piece);
      this.pieceStarts.push(units);
      units += piece.length;
      at = end;
    }
    this.piece = 0; // the piece the last string started in: tables are mostly read in order
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
    if (start === end) return '';
    const { pieces, pieceStarts } = this;
    let i = this.piece;
    if (start < pieceStarts[i] || start >= pieceStarts[i] + pieces[i].length) {
      let lo = 0;
      let hi = pieces.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1;
        if (pieceStarts[mid] <= start) lo = mid;
        else hi = mid - 1;
      }
      i = this.piece = lo;
    }
    const from = start - pieceStarts[i];
    if (end - pieceStarts[i] <= pieces[i].length) return pieces[i].slice(from, end - pieceStarts[i]);
    // A string across pieces (one per piece boundary at most).
    let joined = pieces[i].slice(from);
    while (end - pieceStarts[++i] > pieces[i].length) joined += pieces[i];
    return joined + pieces[i].slice(0, end - pieceStarts[i]);
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
