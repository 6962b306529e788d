// How the demo writes what it shows: sizes in one unit system (binary: KiB, MiB, GiB), text from
// files with its bidi controls made visible, and the page's small DOM helpers, which put text in
// only as text (textContent), never as HTML.
import { markBidiControls } from '../web/card/card_text.js';

const UNITS = ['KiB', 'MiB', 'GiB', 'TiB'];

/** 51234 → "50.0 KiB"; below 1 KiB "812 B". */
export function shortBytes(n) {
  if (n < 1024) return `${n} B`;
  let v = n;
  let u = -1;
  do {
    v /= 1024;
    u++;
  } while (v >= 1024 && u < UNITS.length - 1);
  return `${v.toFixed(v < 10 ? 2 : 1)} ${UNITS[u]}`;
}

/** 51234 → "50.0 KiB (51,234 bytes)". */
export function formatBytes(n) {
  return n < 1024 ? `${n} B` : `${shortBytes(n)} (${n.toLocaleString('en')} bytes)`;
}

/** Text from a file (names, metadata, messages that quote them) as the page shows it. */
export const shown = (text) => markBidiControls(String(text));

export const $ = (id) => document.getElementById(id);

/** An element with properties; string children become text nodes. */
export function el(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

/** A new cell at the end of `row`, holding `text` (bidi controls made visible). */
export function cell(row, text) {
  const td = row.insertCell();
  td.textContent = shown(text);
  return td;
}

export const plural = (n, word) => `${n.toLocaleString('en')} ${word}${n === 1 ? '' : 's'}`;
