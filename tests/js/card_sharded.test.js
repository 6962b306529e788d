// A sharded model's card (web/sharded/sharded_model.js): built on the first describe() from a
// header table written in JS from every shard's tensors (web/header/header_table_writer.js),
// with nothing parsed again, then kept; the same card as one file holding those tensors.
import { describe, expect, test, vi } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { initSafetensors, openSafetensors, openSafetensorsIndex } from '../../web/index.js';
import { loadCardModule } from '../../web/core/modules.js';
import { decodeHeaderTable } from '../../web/header/header_table.js';
import { writeHeaderTable } from '../../web/header/header_table_writer.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';
import { HAVE_REAL, REAL_DIR, rawFile } from './fixtures.js';

const SHARDED = join(REAL_DIR, 'sharded');

/**
 * One file holding `tensors` in that order (their data laid end to end, zeros) with `metadata`:
 * the header a sharded model's card was once built from, as an oracle for it.
 */
function oneFileOf(tensors, metadata) {
  const entries = metadata ? [`"__metadata__":${JSON.stringify(metadata)}`] : [];
  let at = 0;
  for (const t of tensors) {
    entries.push(
      `${JSON.stringify(t.name)}:{"dtype":"${t.dtype}","shape":[${(t.exactShape ?? t.shape).join(',')}],"data_offsets":[${at},${at + t.byteLength}]}`,
    );
    at += t.byteLength;
  }
  return rawFile(`{${entries.join(',')}}`, new Uint8Array(at));
}

/** Counts the calls into the core and the card module while `run` runs. */
async function callsDuring(run) {
  const core = await initSafetensors();
  const card = await loadCardModule();
  const coreCalls = vi.spyOn(core, 'call');
  const cardCalls = vi.spyOn(card, 'call');
  try {
    const result = await run();
    return { result, core: coreCalls.mock.calls.length, card: cardCalls.mock.calls.length };
  } finally {
    coreCalls.mockRestore();
    cardCalls.mockRestore();
  }
}

describe.skipIf(!HAVE_REAL)('the real sharded model (../shared/fixtures/real/sharded)', () => {
  test("describe() builds one card on its first call, from the shards' tensors without parsing anything; later calls copy it", async () => {
    const model = await openSafetensorsIndex(SHARDED);
    const first = await callsDuring(() => model.describe());
    expect(first.core).toBe(0); // no header written out and analysed again
    expect(first.card).toBeGreaterThan(0);
    const tree = await callsDuring(() => first.result.modules);
    expect(tree.card).toBeGreaterThan(0);
    const again = await callsDuring(() => model.describe());
    expect(again).toMatchObject({ core: 0, card: 0 });
    expect(again.result).not.toBe(first.result); // a new object each call
    again.result.family = 'changed';
    const third = await callsDuring(async () => JSON.stringify(await model.describe()));
    expect(third).toMatchObject({ core: 0, card: 0 }); // its tree too comes from the kept card
    // The card of one file holding the same tensors and the first shard's metadata.
    const firstShard = await openSafetensors(new Uint8Array(await readFile(join(SHARDED, model.shards[0].name))));
    const oracle = await (await openSafetensors(oneFileOf(model.tensors, firstShard.metadata))).describe();
    expect(third.result).toBe(JSON.stringify(oracle));
  });
});

test("a model's card holds names of any script and dims past 2^53, as one file of its tensors would", async () => {
  const names = ['caf\u00e9.w', '\u65e5\u672c.b', '\u{1F600}.x', 'empty.huge'];
  const one = writeSafetensors([
    { name: names[0], dtype: 'F32', shape: [1], data: new Uint8Array(4) },
    { name: names[1], dtype: 'BF16', shape: [1], data: new Uint8Array(2) },
  ]);
  const two = rawFile(
    `{"__metadata__":{"k":"v"},${JSON.stringify(names[2])}:{"dtype":"U8","shape":[3],"data_offsets":[0,3]},"${names[3]}":{"dtype":"F16","shape":[0,9007199254740993],"data_offsets":[3,3]}}`,
    new Uint8Array(3),
  );
  const shards = { 'one.safetensors': one, 'two.safetensors': two };
  const model = await openSafetensorsIndex({
    index: { weight_map: Object.fromEntries(names.map((n, i) => [n, i < 2 ? 'one.safetensors' : 'two.safetensors'])) },
    resolve: (name) => shards[name],
  });
  expect(model.findings).toEqual([]);
  expect(model.tensors.at(-1).exactShape).toEqual([0n, 9007199254740993n]);
  // The table written for the card module reads back as those tensors.
  const { tables } = await initSafetensors();
  const back = decodeHeaderTable(writeHeaderTable(model.tensors, { k: 'v' }, tables.dtypes), tables);
  expect(back.tensors.map((t) => [t.name, t.dtype, t.shape, t.exactShape])).toEqual(
    model.tensors.map((t) => [t.name, t.dtype, t.shape, t.exactShape]),
  );
  expect([back.referenceError, back.metadata, back.embeddedHashes]).toEqual([null, { k: 'v' }, []]);
  const card = await model.describe();
  expect(card.modules.tensors).toBe(4);
  expect(card.parameters.byDtype).toEqual({ F32: 1, BF16: 1, U8: 3, F16: 0 });
  const firstShard = await openSafetensors(one);
  expect(JSON.stringify(card)).toBe(
    JSON.stringify(await (await openSafetensors(oneFileOf(model.tensors, firstShard.metadata))).describe()),
  );
});

test('a build that fails is not kept: the next describe() builds again', async () => {
  const shard = writeSafetensors([{ name: 'a.weight', dtype: 'F32', shape: [1], data: new Uint8Array(4) }]);
  const model = await openSafetensorsIndex({
    index: { weight_map: { 'a.weight': 's.safetensors' } },
    resolve: () => shard,
  });
  const card = await loadCardModule();
  const { prototype } = card.module._DecodedHeaderTable;
  const original = prototype.cardTable;
  prototype.cardTable = () => {
    throw new WebAssembly.RuntimeError('unreachable');
  };
  try {
    expect(await model.describe().catch((e) => e.code)).toBe('InternalError');
  } finally {
    prototype.cardTable = original;
  }
  expect((await model.describe()).parameters.total).toBe(1);
});
