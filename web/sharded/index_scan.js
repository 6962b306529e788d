// A fast reader for the index text of a sharded checkpoint, covering the layout every writer
// emits: a top-level object whose "weight_map" maps names to shard file names, with strings
// that hold no escapes. On a 500,000-entry index it takes about a third of JSON.parse's time
// and builds no 500,000-key object (BENCHMARKS.md, "Sharded checkpoints"). It returns null
// wherever the text strays from that layout. The caller then falls back to JSON.parse, so both
// paths always give the same index. The cases sent back are: escapes, a name that is an array
// index (objects list those first), a name that may be there twice (JSON.parse keeps the last
// value at the first place), a repeated top-level key, a "weight_map" that is not an object
// of strings, and invalid JSON.
import {
  BACKSLASH,
  CLOSE_BRACE,
  COLON,
  COMMA,
  OPEN_BRACE,
  QUOTE,
  plainStringEnd,
  skipSpace,
  valueEnd,
} from './json_text.js';

/**
 * `array` copied into one twice as long.
 * @template {Uint32Array | Int32Array} T
 * @param {T} array
 * @returns {T}
 */
function doubled(array) {
  const grown = new /** @type {new (length: number) => T} */ (array.constructor)(2 * array.length);
  grown.set(array);
  return grown;
}

/** An array index ("0", "17"): JavaScript objects list such keys first, in numeric order. */
const isArrayIndex = (/** @type {string} */ name) => /^(?:0|[1-9][0-9]*)$/.test(name) && Number(name) < 4294967295;

/** Probes past which hasRepeats gives up: only names made to collide get that far. */
const MAX_PROBES = 64;

/**
 * True when a name is there twice, or when the names collide so much that finding out would
 * be slow (a hostile index: JSON.parse then reads it). Open addressing over entry numbers;
 * names are compared only where their hashes are equal.
 * @param {string[]} names
 * @param {Int32Array} hashes
 */
function hasRepeats(names, hashes) {
  const mask = 2 ** Math.ceil(Math.log2(2 * names.length + 2)) - 1;
  const slots = new Int32Array(mask + 1); // entry number + 1; 0 is empty
  for (let i = 0; i < names.length; i++) {
    const hash = hashes[i];
    let slot = hash & mask;
    for (let probes = 0; slots[slot] !== 0; probes++) {
      const other = slots[slot] - 1;
      if ((hashes[other] === hash && names[other] === names[i]) || probes === MAX_PROBES) return true;
      slot = (slot + 1) & mask;
    }
    slots[slot] = i + 1;
  }
  return false;
}

/**
 * @typedef {object} ScannedWeightMap
 * @property {string[]} names in the text's order, distinct
 * @property {Uint32Array} shardOf for each name, its shard's position in `shards`
 * @property {string[]} shards in order of first mention
 * @property {number} end where the object ends in the text
 */

/**
 * Reads the weight_map object whose "{" is at `at`.
 * @param {string} text
 * @param {number} at
 * @returns {ScannedWeightMap | null}
 */
function scanWeightMap(text, at) {
  /** @type {string[]} */
  const names = [];
  let shardOf = new Uint32Array(1024);
  let hashes = new Int32Array(1024); // FNV-1a of each name, for hasRepeats
  /** @type {string[]} */
  const shards = [];
  /** @type {Map<string, number>} */
  const shardNumber = new Map();
  let last = -1; // the previous entry's shard: runs of one shard are compared in place
  at = skipSpace(text, at + 1);
  if (text.charCodeAt(at) === CLOSE_BRACE) return { names, shardOf: shardOf.subarray(0, 0), shards, end: at + 1 };
  for (;;) {
    if (text.charCodeAt(at) !== QUOTE) return null;
    const start = at + 1;
    let hash = 0x811c9dc5 | 0;
    let end = start;
    for (let c; (c = text.charCodeAt(end)) !== QUOTE; end++) {
      if (c === BACKSLASH || !(c >= 32)) return null;
      hash = Math.imul(hash ^ c, 16777619);
    }
    const name = text.slice(start, end);
    if (text.charCodeAt(start) <= 57 && isArrayIndex(name)) return null;
    const n = names.length;
    if (n === shardOf.length) {
      shardOf = doubled(shardOf);
      hashes = doubled(hashes);
    }
    names.push(name);
    hashes[n] = hash;

    at = skipSpace(text, end + 1);
    if (text.charCodeAt(at) !== COLON) return null;
    at = skipSpace(text, at + 1);
    if (text.charCodeAt(at) !== QUOTE) return null; // not a string: JSON.parse's path says so
    const shardStart = at + 1;
    const previous = shards[last]; // undefined before the first entry
    if (
      previous !== undefined &&
      text.startsWith(previous, shardStart) &&
      text.charCodeAt(shardStart + previous.length) === QUOTE
    ) {
      at = shardStart + previous.length + 1;
    } else {
      const shardEnd = plainStringEnd(text, shardStart);
      if (shardEnd < 0) return null;
      const shard = text.slice(shardStart, shardEnd);
      let number = shardNumber.get(shard);
      if (number === undefined) {
        number = shards.length;
        shards.push(shard);
        shardNumber.set(shard, number);
      }
      last = number;
      at = shardEnd + 1;
    }
    shardOf[n] = last;

    at = skipSpace(text, at);
    const c = text.charCodeAt(at);
    if (c === CLOSE_BRACE) {
      if (hasRepeats(names, hashes)) return null;
      return { names, shardOf: shardOf.subarray(0, names.length), shards, end: at + 1 };
    }
    if (c !== COMMA) return null;
    at = skipSpace(text, at + 1);
  }
}

/**
 * The index read from its text, or null when JSON.parse must read it (see the top of this file).
 * @param {string} text
 * @returns {{ json: Record<string, unknown>, weightMap: ScannedWeightMap } | null}
 *   json: the top-level members other than "weight_map", as JSON.parse gives them
 */
export function scanIndex(text) {
  let at = skipSpace(text, 0);
  if (text.charCodeAt(at) !== OPEN_BRACE) return null;
  /** @type {Record<string, unknown>} */
  const json = {};
  const seen = new Set();
  /** @type {ScannedWeightMap | null} */
  let weightMap = null;
  at = skipSpace(text, at + 1);
  if (text.charCodeAt(at) !== CLOSE_BRACE) {
    for (;;) {
      if (text.charCodeAt(at) !== QUOTE) return null;
      const keyEnd = plainStringEnd(text, at + 1);
      if (keyEnd < 0) return null;
      const key = text.slice(at + 1, keyEnd);
      if (seen.has(key)) return null;
      seen.add(key);
      at = skipSpace(text, keyEnd + 1);
      if (text.charCodeAt(at) !== COLON) return null;
      at = skipSpace(text, at + 1);
      if (key === 'weight_map') {
        if (text.charCodeAt(at) !== OPEN_BRACE) return null;
        weightMap = scanWeightMap(text, at);
        if (weightMap === null) return null;
        at = weightMap.end;
      } else {
        const end = valueEnd(text, at);
        if (end <= at) return null;
        try {
          // Own data properties, as JSON.parse makes them (a "__proto__" key stays a key).
          Object.defineProperty(json, key, {
            value: JSON.parse(text.slice(at, end)),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        } catch {
          return null;
        }
        at = end;
      }
      at = skipSpace(text, at);
      const c = text.charCodeAt(at);
      if (c === CLOSE_BRACE) break;
      if (c !== COMMA) return null;
      at = skipSpace(text, at + 1);
    }
  }
  if (skipSpace(text, at + 1) !== text.length || weightMap === null) return null;
  return { json, weightMap };
}
