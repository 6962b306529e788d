// The index scanner (web/sharded/index_scan.js) against JSON.parse: for every text, parseIndex gives
// what it gives for JSON.parse's object of the same text (or both refuse it), whether the
// scanner read the text or sent it back to JSON.parse; crafted layouts check that each path
// is taken where it should be, and seeded mutations of real layouts check the agreement.
import { describe, expect, test } from 'vitest';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parseIndex } from '../../web/sharded/shard_index.js';
import { scanIndex } from '../../web/sharded/index_scan.js';
import { HAVE_REAL, REAL_DIR } from './fixtures.js';

/** What parseIndex makes of `value`, comparable with toEqual; errors by code and message. */
function outcome(value) {
  try {
    const { metadata, names, shardOf, shards } = parseIndex(value, 'the index');
    return { metadata, names, shardOf: Array.from(shardOf), shards };
  } catch (error) {
    // JSON.parse's own wording (after "is not JSON") differs with what it was given.
    return { error: error.code, message: error.message.replace(/ is not JSON[^]*/, ' is not JSON') };
  }
}

/** The reference: JSON.parse first, then parseIndex of the object. */
function reference(text) {
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    return { error: 'InvalidIndex', message: 'the index is not JSON' };
  }
  return outcome(json);
}

const agree = (text) => expect(outcome(text), JSON.stringify(text).slice(0, 300)).toEqual(reference(text));

/** FNV-1a over UTF-16 code units, the scanner's hash (written out here from its definition). */
function fnv1a(text) {
  let hash = 0x811c9dc5 | 0;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return hash;
}

/** A small PRNG (mulberry32), so that every run tries the same mutations. */
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const weightMap = {
  'model.embed_tokens.weight': 'model-00001-of-00002.safetensors',
  'model.layers.0.mlp.up_proj.weight': 'model-00001-of-00002.safetensors',
  'model.layers.1.mlp.up_proj.weight': 'model-00002-of-00002.safetensors',
  'lm_head.weight': 'model-00002-of-00002.safetensors',
};
const written = {
  'transformers (indent 2, sorted keys)': JSON.stringify(
    { metadata: { total_size: 1234 }, weight_map: Object.fromEntries(Object.entries(weightMap).sort()) },
    null,
    2,
  ),
  compact: JSON.stringify({ weight_map: weightMap, metadata: { total_size: 1234, format: 'pt' } }),
  'tabs and CRLF': `{\r\n\t"metadata" : {"total_parameters": 7, "nested": [1, {"a": "}"}]},\r\n\t"weight_map" : {\r\n\t\t"a" : "s1.safetensors" ,\r\n\t\t"b":"s2.safetensors"\r\n\t}\r\n}\r\n`,
  'no metadata, other members': JSON.stringify({
    format: 'pt',
    weight_map: weightMap,
    extra: [null, true, false, -1.5e3, 'x\\"y'],
  }),
  'metadata null': '{"metadata": null, "weight_map": {"a": "s.safetensors"}}',
  'empty weight_map': '{"metadata": {}, "weight_map": {}}',
  'a "__proto__" member and tensor':
    '{"__proto__": {"x": 1}, "metadata": {"__proto__": 2}, "weight_map": {"__proto__": "s.safetensors", "b": "s.safetensors"}}',
  'names past U+FFFF, written raw': JSON.stringify({
    weight_map: { 'emoji.😀.weight': 's.safetensors', é: 't.safetensors' },
  }),
  'metadata not an object (read, then refused as the object is)': '{"metadata": "x", "weight_map": {}}',
};
const sentBack = {
  'an escaped name (Python writes non-ASCII as \\u escapes)':
    '{"weight_map": {"caf\\u00e9.weight": "s.safetensors", "b": "s.safetensors"}}',
  'an escaped shard name': '{"weight_map": {"a": "dir\\/s.safetensors"}}',
  'a name that is an array index':
    '{"weight_map": {"b": "s.safetensors", "10": "s.safetensors", "2": "t.safetensors"}}',
  'a name there twice (the last value, at the first place)':
    '{"weight_map": {"a": "s.safetensors", "b": "s.safetensors", "a": "t.safetensors"}}',
  'weight_map twice': '{"weight_map": {"a": "s.safetensors"}, "weight_map": {"b": "t.safetensors"}}',
  'metadata twice': '{"metadata": {"total_size": 1}, "metadata": {"total_size": 2}, "weight_map": {}}',
  'a shard that is not a string': '{"weight_map": {"a": 1}}',
  'weight_map not an object': '{"weight_map": ["a"]}',
  'no weight_map': '{"metadata": {}}',
  'not an object': '[{"weight_map": {}}]',
  'a raw control character in a name': '{"weight_map": {"a\tb": "s.safetensors"}}',
  'trailing garbage': '{"weight_map": {}} x',
  'a trailing comma': '{"weight_map": {"a": "s.safetensors",}}',
  'cut short': '{"weight_map": {"a": "s.safe',
  'a byte-order mark': '\ufeff{"weight_map": {}}',
  'invalid metadata JSON': '{"metadata": {"a": tru}, "weight_map": {}}',
  'empty text': '',
};

describe('the index scanner agrees with JSON.parse', () => {
  test('layouts writers emit are read by the scanner, with the same outcome as JSON.parse gives', () => {
    for (const [what, text] of Object.entries(written)) {
      expect(scanIndex(text), what).not.toBeNull();
      agree(text);
    }
  });

  test('escapes, array-index names, repeats and invalid JSON go to JSON.parse, with its result', () => {
    for (const [what, text] of Object.entries(sentBack)) {
      expect(scanIndex(text), what).toBeNull();
      agree(text);
    }
    // The JSON.parse path really ran: its semantics, not a scan's.
    expect(outcome(sentBack['a name there twice (the last value, at the first place)'])).toMatchObject({
      names: ['a', 'b'],
      shardOf: [0, 1],
      shards: ['t.safetensors', 's.safetensors'],
    });
    expect(outcome(sentBack['a name that is an array index']).names).toEqual(['2', '10', 'b']);
  });

  test('bytes are decoded once and read the same way', () => {
    const bytes = new TextEncoder().encode(written['names past U+FFFF, written raw']);
    expect(outcome(bytes)).toEqual(reference(written['names past U+FFFF, written raw']));
  });

  test('names whose hashes collide are told apart; a crafted pile of collisions goes to JSON.parse', () => {
    // 100 names: the scanner's table has 256 slots, so names that share their hash's low 8 bits
    // land in one chain.
    const byLowBits = new Map();
    for (let i = 0; byLowBits.get(7)?.length !== 70; i++) {
      const name = `layer.${i}.weight`;
      const low = fnv1a(name) & 255;
      byLowBits.set(low, [...(byLowBits.get(low) ?? []), name]);
    }
    const colliding = byLowBits.get(7);
    const few = Object.fromEntries(
      [...colliding.slice(0, 10), ...Array.from({ length: 90 }, (_, i) => `other.${i}`)].map((n) => [
        n,
        's.safetensors',
      ]),
    );
    expect(scanIndex(JSON.stringify({ weight_map: few }))).not.toBeNull(); // ten in a chain: compared, all distinct
    agree(JSON.stringify({ weight_map: few }));
    const pile = Object.fromEntries(
      [...colliding, ...Array.from({ length: 30 }, (_, i) => `other.${i}`)].map((n) => [n, 's.safetensors']),
    );
    expect(scanIndex(JSON.stringify({ weight_map: pile }))).toBeNull(); // 70 in a chain: past the probe limit
    agree(JSON.stringify({ weight_map: pile }));
  });

  test('3,000 seeded mutations of written indexes: the same outcome as JSON.parse every time', () => {
    const next = random(20261123);
    const pieces = [
      '"',
      '\\',
      '{',
      '}',
      '[',
      ']',
      ',',
      ':',
      ' ',
      '\n',
      '0',
      '1',
      'a',
      'é',
      '\u0001',
      'true',
      'null',
      '"a"',
      '"weight_map"',
      '"metadata"',
    ];
    const bases = Object.values(written);
    let scanned = 0;
    for (let n = 0; n < 3000; n++) {
      let text = bases[Math.floor(next() * bases.length)];
      for (let edits = 1 + Math.floor(next() * 3); edits > 0; edits--) {
        const at = Math.floor(next() * (text.length + 1));
        const kind = next();
        if (kind < 0.4) text = text.slice(0, at) + text.slice(at + 1);
        else if (kind < 0.8) text = text.slice(0, at) + pieces[Math.floor(next() * pieces.length)] + text.slice(at);
        else text = text.slice(0, at) + text.slice(at, at + 12) + text.slice(at); // a repeated stretch
      }
      if (scanIndex(text) !== null) scanned++;
      agree(text);
    }
    expect(scanned).toBeGreaterThan(300); // the scanner's own path was exercised, not just the fallback
  });

  test.skipIf(!HAVE_REAL)("the real sharded model's index is read by the scanner", async () => {
    const dir = join(REAL_DIR, 'sharded');
    const text = await readFile(
      join(
        dir,
        (await readdir(dir)).find((f) => f.endsWith('.index.json')),
      ),
      'utf8',
    );
    expect(scanIndex(text)).not.toBeNull();
    agree(text);
  });
});
