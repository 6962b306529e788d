// The packed table's text is decoded in pieces (web/core/table_reader.js): every string must
// read back as written, wherever the piece boundaries fall, in any order.
import { describe, expect, it } from 'vitest';
import { TEXT_PIECE_BYTES, TableReader } from '../../web/core/table_reader.js';
import { openSafetensors } from '../../web/index.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';

/** A table of `strings` only, in the layout of cpp/wasm/table_writer.h. */
function tableOf(strings) {
  const numbers = [];
  let units = 0;
  for (const s of strings) {
    numbers.push(units, units + s.length);
    units += s.length;
  }
  const text = new TextEncoder().encode(strings.join(''));
  const out = new Uint8Array(8 + numbers.length * 8 + text.byteLength);
  const view = new DataView(out.buffer);
  view.setUint32(0, numbers.length, true);
  view.setUint32(4, text.byteLength, true);
  numbers.forEach((n, i) => view.setFloat64(8 + i * 8, n, true));
  out.set(text, 8 + numbers.length * 8);
  return out;
}

/** Strings of 1- to 4-byte characters (the 4-byte ones are surrogate pairs in JS). */
function mixedStrings(count, seed) {
  const alphabet = ['a', 'Z', '.', 'é', 'ß', '日', '本', '😀', '𝔘', ''];
  let x = seed;
  const next = () => (x = (x * 1103515245 + 12345) % 2 ** 31);
  const out = [];
  for (let i = 0; i < count; i++) {
    let s = '';
    const length = next() % 90;
    for (let j = 0; j < length; j++) s += alphabet[next() % alphabet.length];
    out.push(s);
  }
  return out;
}

describe('TableReader text in pieces', () => {
  it('reads every string back, in order and out of order, across piece boundaries', () => {
    const strings = mixedStrings(6000, 7);
    // A string longer than two pieces, and one of 4-byte characters only, in the middle.
    strings.splice(2000, 0, 'x'.repeat(2 * TEXT_PIECE_BYTES + 5), '😀'.repeat(TEXT_PIECE_BYTES / 2));
    const bytes = tableOf(strings);
    const r = new TableReader(bytes);
    expect(r.pieces.length).toBeGreaterThan(8);
    expect(strings.map(() => r.str())).toEqual(strings);
    // Backwards, then at random: the reader's cursor moves both ways.
    for (let i = strings.length - 1; i >= 0; i -= 37) {
      r.at = 2 * i;
      expect(r.str()).toBe(strings[i]);
    }
    for (const i of [5000, 3, 2001, 2000, 2002, 5999, 0, 4100]) {
      r.at = 2 * i;
      expect(r.str()).toBe(strings[i]);
    }
  });

  it('cuts pieces before a UTF-8 lead byte, never inside a character', () => {
    // A 4-byte character straddles the first boundary: its bytes stay in one piece.
    const strings = ['a'.repeat(TEXT_PIECE_BYTES - 2), '😀', 'tail'];
    const r = new TableReader(tableOf(strings));
    expect(r.pieces.join('')).toBe(strings.join(''));
    expect(r.pieces.some((p) => p.includes('\uFFFD'))).toBe(false);
    expect(strings.map(() => r.str())).toEqual(strings);
  });

  it('gives tensor names as the header has them, through openSafetensors', async () => {
    const names = mixedStrings(3000, 11).map((s, i) => `${i}.${s}`);
    const file = writeSafetensors(names.map((name) => ({ name, dtype: 'F32', shape: [1], data: new Uint8Array(4) })));
    const st = await openSafetensors(file);
    const sorted = [...names].sort();
    expect(st.tensors.map((t) => t.name).sort()).toEqual(sorted);
  });
});
