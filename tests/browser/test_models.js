// Files the Chromium and cross-engine tests share: one tensor of every dtype (odd sizes, odd
// offsets), a two-shard model with its index, and a signed model (model_signing, a P-256 key of
// its own). Each as bytes, written where a test wants them.
import { generateKeyPairSync } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { DTYPE_ORDER, pseudoRandomBytes, writeSafetensors } from '../../tools/write_safetensors.js';
import { layoutFile } from '../js/fixtures.js';
import { publicPem, signModel } from '../js/model_signer.js';

const encode = (text) => new TextEncoder().encode(text);

/** Bits per element of each dtype (8 where a dtype is a byte or more a unit). */
const BITS = {
  BOOL: 8,
  F4: 4,
  F6_E2M3: 6,
  F6_E3M2: 6,
  U8: 8,
  I8: 8,
  I16: 16,
  U16: 16,
  F16: 16,
  BF16: 16,
  I32: 32,
  U32: 32,
  F32: 32,
  C64: 64,
  F64: 64,
  I64: 64,
  U64: 64,
};

/** One tensor of every dtype, odd sizes so that later tensors sit at odd offsets. */
export const ALL_DTYPES = DTYPE_ORDER.map((dtype, i) => {
  const elements = dtype.startsWith('F6') ? 4 * 37 : dtype === 'F4' ? 2 * 1001 : 4099;
  const bytes = (elements * (BITS[dtype] ?? 8)) / 8;
  return { name: `t.${dtype}`, dtype, shape: [elements], data: pseudoRandomBytes(bytes, i + 1), gap: i % 3 };
});

/** The file of ALL_DTYPES. */
export const allDtypesFile = () => layoutFile(ALL_DTYPES);

/** A two-shard model: its files' bytes by name (shard names as transformers writes them). */
export function twoShardModel() {
  const first = writeSafetensors([
    { name: 'model.embed.weight', dtype: 'F32', shape: [4, 4], data: pseudoRandomBytes(64, 1) },
  ]);
  const second = writeSafetensors([
    { name: 'model.head.weight', dtype: 'F32', shape: [4], data: new Uint8Array(16) },
    { name: 'model.head.bias', dtype: 'F16', shape: [2], data: pseudoRandomBytes(4, 2) },
  ]);
  const index = {
    metadata: { total_size: 84 },
    weight_map: {
      'model.embed.weight': 'model-00001-of-00002.safetensors',
      'model.head.weight': 'model-00002-of-00002.safetensors',
      'model.head.bias': 'model-00002-of-00002.safetensors',
    },
  };
  return {
    'model-00001-of-00002.safetensors': first,
    'model-00002-of-00002.safetensors': second,
    'model.safetensors.index.json': encode(JSON.stringify(index)),
  };
}

/** A signed model (Map name -> bytes), its model.sig's bytes and the key's PEM. */
export function signedModel() {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const weights = writeSafetensors([
    { name: 'lora.down.weight', dtype: 'F32', shape: [4, 4], data: pseudoRandomBytes(64, 3) },
  ]);
  const model = new Map([
    ['adapter.safetensors', weights],
    ['config.json', encode('{"r":4}')],
    ['docs/README.md', encode('# a LoRA\n')],
    // model_signing signs dotfiles too (it leaves out only .git* and the signature): a drop must
    // hand them to the check, though the page's views skip them.
    ['.cache/huggingface/adapter.safetensors.metadata', encode('etag\n')],
  ]);
  return { model, signature: encode(JSON.stringify(signModel(model, privateKey))), pem: publicPem(privateKey) };
}

/**
 * Writes `files` (a Map or object of relative names to bytes) into the folder `dir`; its path.
 * @param {string} dir
 * @param {Map<string, Uint8Array> | Record<string, Uint8Array>} files
 */
export async function writeFolder(dir, files) {
  for (const [path, bytes] of files instanceof Map ? files : Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), bytes);
  }
  return dir;
}
