// describe(): the model card as JavaScript sees it, on real files and crafted ones.
import { describe, expect, test, vi } from 'vitest';
import { openAsBlob } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openSafetensors } from '../../web/index.js';
import { readSource } from '../../web/file/validate.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';
import { HAVE_REAL, REAL_DIR, recordingSource } from './fixtures.js';

const f16 = (value) => new Uint8Array(new Uint16Array([value]).buffer);

// Every tensor is in exactly one node's `own`, below nodes whose paths prefix its name, and the
// counts add up.
function checkTree(root, tensors) {
  const seen = new Array(tensors.length).fill(0);
  const walk = (node) => {
    let count = node.own.length;
    for (const i of node.own) {
      seen[i]++;
      expect(tensors[i].name.startsWith(node.path)).toBe(true);
    }
    for (const child of node.children) {
      expect(child.path.startsWith(node.path)).toBe(true);
      count += walk(child);
    }
    expect(node.tensors).toBe(count);
    return count;
  };
  walk(root);
  expect(seen.every((n) => n === 1)).toBe(true);
}

describe.skipIf(!HAVE_REAL)('real files', () => {
  test('the kohya LyCORIS LoKr: an SD 1.x adapter with its trigger word and hashes', async () => {
    const st = await openSafetensors(await openAsBlob(join(REAL_DIR, 'kohya_lycoris_lokr_dim4_f16.safetensors')));
    const card = await st.describe();
    expect(card.kind).toBe('adapter');
    expect(card.family).toMatchObject({ id: 'sd1', name: 'Stable Diffusion 1.x' });
    expect(card.family.evidence[0]).toContain('attn2_to_k [320, 768]');
    expect(card.adapter).toEqual({
      type: 'lokr',
      format: 'kohya',
      rank: 4,
      alpha: 4,
      targets: ['text_encoder', 'unet'],
      networkModule: 'lycoris.kohya',
    });
    expect(card.title).toBe('smart_falcon_lokr_3.0e-4');
    expect(card.triggerWords[0]).toEqual({
      text: 'smart falcon \\(umamusume\\)',
      source: 'ss_training_comment',
      count: card.tags[0].count,
    });
    expect(card.baseModel).toEqual({
      name: 'animefull-final-pruned.safetensors',
      hash: '7548b773903c5a5effd63afa2a066e472d5c94aed77a107f16dae20f609e240b',
      version: 'sd_v1',
    });
    expect(card.training.learning_rate).toBe(0.0003);
    expect(card.training.v2).toBe(false);
    expect(card.embeddedHashes).toContainEqual({
      key: 'sshs_model_hash',
      value: '150ef207aad02214f69756f53c3fc56efacdf6c79e32dd76e5fcbcf6c6a5350f',
      covers: 'data',
    });
    expect(card.parameters.total).toBe(st.tensors.reduce((sum, t) => sum + t.shape.reduce((a, b) => a * b, 1), 0));
    expect(card.parameters.byDtype).toEqual({ F16: card.parameters.total });
    expect(card.modules.children.map((c) => c.name)).toEqual(['lora_te', 'lora_unet']);
    checkTree(card.modules, st.tensors);
  });

  test('the hash claims the core finds at open are those the card lists, on every real file', async () => {
    const names = (await readdir(REAL_DIR, { recursive: true })).filter((n) => n.endsWith('.safetensors')).sort();
    let described = 0;
    const claimed = [];
    for (const name of names) {
      const bytes = new Uint8Array(await readFile(join(REAL_DIR, name)));
      const { header } = await readSource(bytes, {});
      if (header.referenceError !== null) continue; // the one rejected on purpose
      const card = await (await openSafetensors(bytes)).describe();
      expect(header.embeddedHashes, name).toEqual(card.embeddedHashes);
      described++;
      claimed.push(...header.embeddedHashes.map((h) => h.key));
    }
    expect(described).toBeGreaterThanOrEqual(14);
    // The kohya LoKr claims its data hash, its legacy hash and its base model's.
    expect(claimed).toEqual(expect.arrayContaining(['sshs_model_hash', 'sshs_legacy_hash', 'ss_sd_model_hash']));
  });

  test('GPT-2 and the torchtune Gemma (whose header is Llama-like) are models with their sizes', async () => {
    const gpt2 = await (
      await openSafetensors(await openAsBlob(join(REAL_DIR, 'transformers_gpt2_tiny_f32.safetensors')))
    ).describe();
    expect(gpt2.kind).toBe('model');
    expect(gpt2.family.id).toBe('gpt2');
    expect(gpt2.architecture).toEqual({ layers: 4, hiddenSize: 64, vocabSize: 53 });
    const gemma = await (
      await openSafetensors(await openAsBlob(join(REAL_DIR, 'torchtune_gemma_hf_layout_f16.safetensors')))
    ).describe();
    expect(gemma.family.id).toBe('llama');
    expect(gemma.architecture).toEqual({ layers: 1, hiddenSize: 64, vocabSize: 100 });
  });
});

test('describe reads only the header, and each call gives a new object', async () => {
  const file = writeSafetensors(
    [
      { name: 'model.layers.0.self_attn.q_proj.weight', dtype: 'F16', shape: [2, 2], data: new Uint8Array(8) },
      { name: 'model.layers.0.mlp.gate_proj.weight', dtype: 'F16', shape: [4, 2], data: new Uint8Array(16) },
    ],
    { format: 'pt' },
  );
  const source = recordingSource(file);
  const st = await openSafetensors(source);
  const card = await st.describe();
  expect(card.family.id).toBe('llama');
  expect(source.reads.every(([offset, length]) => offset + length <= st.dataStart)).toBe(true);
  card.family.id = 'changed';
  card.modules.children.length = 0;
  const again = await st.describe();
  expect(again.family.id).toBe('llama');
  expect(again.modules.children.length).toBe(1);
});

test('readAlpha reads one .alpha scalar when the metadata lacks the alpha', async () => {
  const m = 'lora_unet_down_blocks_0_attentions_0_transformer_blocks_0_attn2_to_k';
  const file = writeSafetensors([
    { name: `${m}.alpha`, dtype: 'F16', shape: [], data: f16(0x4800) }, // 8.0
    { name: `${m}.lora_down.weight`, dtype: 'F16', shape: [4, 768], data: new Uint8Array(4 * 768 * 2) },
    { name: `${m}.lora_up.weight`, dtype: 'F16', shape: [320, 4], data: new Uint8Array(320 * 4 * 2) },
  ]);
  const st = await openSafetensors(file);
  const plain = await st.describe();
  expect(plain.adapter.alpha).toBe(null);
  expect(plain.adapter.alphaTensor).toBe(`${m}.alpha`);
  expect(plain.family.id).toBe('sd1');
  expect((await st.describe({ readAlpha: true })).adapter.alpha).toBe(8);
  // Read once per file: later calls take the value read.
  const reads = vi.spyOn(st, 'getTensor');
  expect((await st.describe({ readAlpha: true })).adapter.alpha).toBe(8);
  expect(reads).not.toHaveBeenCalled();
  expect((await st.describe()).adapter.alpha).toBe(null); // without readAlpha, as the header says
  await expect(st.describe({ readAlpha: 'yes' })).rejects.toThrow(TypeError);
});

test('describe() reads nothing: the card is of the header as opened, even if the file changed since', async () => {
  const one = writeSafetensors([{ name: 'a', dtype: 'U8', shape: [1], data: new Uint8Array(1) }]);
  const two = writeSafetensors([
    { name: 'a', dtype: 'U8', shape: [1], data: new Uint8Array(1) },
    { name: 'b', dtype: 'U8', shape: [7], data: new Uint8Array(7) },
  ]);
  let bytes = one;
  let reads = 0;
  const source = {
    size: one.byteLength,
    async read(offset, length) {
      reads++;
      return bytes.slice(offset, offset + length);
    },
  };
  const st = await openSafetensors(source);
  const opened = reads;
  bytes = new Uint8Array(two.subarray(0, one.byteLength));
  bytes.set(two.subarray(0, 8)); // a longer header now
  const card = await st.describe();
  expect(reads).toBe(opened);
  expect(card.modules.tensors).toBe(1);
  expect(card.parameters.total).toBe(1);
});

test('metadata and names from strangers come back as plain strings', async () => {
  const evil = '<img src=x onerror=alert(1)>"\'\\\u0000\u2028';
  const file = writeSafetensors(
    [
      { name: `${evil}.weight`, dtype: 'U8', shape: [1], data: new Uint8Array(1) },
      { name: '__proto__', dtype: 'U8', shape: [1], data: new Uint8Array(1) },
    ],
    { 'modelspec.title': evil, ss_learning_rate: evil, __proto__: evil, ssmd_keywords: `${evil}, b` },
  );
  const st = await openSafetensors(file);
  const card = await st.describe();
  expect(card.title).toBe(evil);
  expect(card.training.learning_rate).toBe(evil);
  expect(card.triggerWords.map((w) => w.text)).toEqual([evil, 'b']);
  expect(Object.getPrototypeOf(card.training)).toBe(Object.prototype);
  // Single-tensor modules fold into the root, which holds both names as they are.
  expect(card.modules.own.map((i) => st.tensors[i].name).sort()).toEqual(['__proto__', `${evil}.weight`].sort());
});

test('the card is of the header as opened: later changes to the file object do not change it', async () => {
  const m = 'lora_unet_down_blocks_0_attentions_0_transformer_blocks_0_attn2_to_k';
  const file = writeSafetensors(
    [
      { name: `${m}.lora_down.weight`, dtype: 'F16', shape: [4, 768], data: new Uint8Array(4 * 768 * 2) },
      { name: `${m}.lora_up.weight`, dtype: 'F16', shape: [320, 4], data: new Uint8Array(320 * 4 * 2) },
    ],
    { ss_network_dim: '4', ss_network_alpha: '2', 'modelspec.title': 'as opened' },
  );
  const untouched = await (await openSafetensors(file)).describe();
  const st = await openSafetensors(file);
  st.tensors[0].name = 'renamed';
  st.tensors[1].shape = [1];
  st.tensors.push({ name: 'added', dtype: 'F32', shape: [9], dataOffsets: [0, 36] });
  st.metadata['modelspec.title'] = 'changed';
  const card = await st.describe();
  expect(card.title).toBe('as opened');
  expect(card.adapter).toMatchObject({ type: 'lora', rank: 4, alpha: 2 });
  expect(card.parameters.total).toBe(4 * 768 + 320 * 4);
  expect(card).toEqual(untouched);
  expect(await st.describe()).toEqual(untouched); // and again, from the card kept in JS
});
