// Short texts about a model card, shared by the CLI and the demo so both say the same:
// the adapter line, parameter counts, the memory estimate and the training summary's chosen values.

/** The training values a training summary shows (kohya's, then a checkpoint's), in this order (keys of card.training). */
const TRAINING_SUMMARY = [
  ['num_epochs', 'epochs'],
  ['max_train_steps', 'steps'],
  ['num_train_images', 'images'],
  ['resolution', 'resolution'],
  ['learning_rate', 'learning rate'],
  ['unet_lr', 'UNet lr'],
  ['text_encoder_lr', 'text encoder lr'],
  ['optimizer', 'optimizer'],
  ['lr_scheduler', 'scheduler'],
  ['mixed_precision', 'precision'],
  ['model_type', 'model type'],
  ['seed', 'seed'],
  // A checkpoint's counters (openCheckpoint's describe): Lightning's, A1111's embedding step.
  ['epoch', 'epoch'],
  ['global_step', 'global step'],
  ['step', 'step'],
];

const ADAPTER_NAMES = {
  lora: 'LoRA',
  locon: 'LoCon',
  loha: 'LoHa',
  lokr: 'LoKr',
  dora: 'DoRA',
  glora: 'GLoRA',
  oft: 'OFT',
  diff: 'full diff',
  unknown: 'adapter',
};

/**
 * 201726 → "201,726", as toLocaleString('en') writes it. A whole number is grouped here: the
 * first toLocaleString of a process loads the locale data, which costs a cold CLI run 10 ms and
 * more; anything else (fractions, negatives, past 2^53) is left to toLocaleString.
 * @param {number} n
 */
export function grouped(n) {
  if (!Number.isSafeInteger(n) || n < 0 || Object.is(n, -0)) return n.toLocaleString('en');
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}

/**
 * 1234567 → "1.23M" (K, M, B, T; below 1000 as is).
 * @param {number} n
 */
export function shortCount(n) {
  for (const [unit, size] of /** @type {[string, number][]} */ ([
    ['T', 1e12],
    ['B', 1e9],
    ['M', 1e6],
    ['K', 1e3],
  ])) {
    if (n >= size) return `${(n / size).toFixed(n / size < 10 ? 2 : 1)}${unit}`;
  }
  return String(n);
}

/**
 * "LoRA", "LoKr", …: what kind of adapter the card's is (null for a model).
 * @param {import('../index.js').ModelCard} card
 */
export function adapterName(card) {
  return card.adapter ? (ADAPTER_NAMES[card.adapter.type] ?? card.adapter.type) : null;
}

/**
 * "LoKr (kohya, lycoris.kohya), rank 4, alpha 4, on unet and text_encoder", or null.
 * @param {import('../index.js').ModelCard} card
 */
export function adapterText(card) {
  const a = card.adapter;
  if (!a) return null;
  const how = [a.format, a.networkModule].filter(Boolean).join(', ');
  const parts = [`${adapterName(card)} (${how})`];
  if (a.rank !== null) parts.push(`rank ${a.rank}`);
  if (a.alpha !== null) parts.push(`alpha ${a.alpha}`);
  if (a.targets.length) parts.push(`on ${a.targets.slice(0, 6).join(', ')}${a.targets.length > 6 ? ', …' : ''}`);
  return parts.join(', ');
}

/**
 * "Stable Diffusion XL (sdxl)", with the variant when there is one; null when unknown.
 * @param {import('../index.js').ModelCard} card
 */
export function familyText(card) {
  const f = card.family;
  if (!f) return null;
  return `${f.name}${f.variant ? ` ${f.variant}` : ''} (${f.id})`;
}

/**
 * "201,726 (F16 201,726)", and the quantized estimate when there is one.
 * @param {import('../index.js').ModelCard} card
 */
export function parametersText(card) {
  const { total, byDtype, quantized } = card.parameters;
  const dtypes = Object.entries(byDtype)
    .sort((x, y) => y[1] - x[1])
    .map(([d, n]) => `${d} ${grouped(n)}`);
  let text = `${grouped(total)} (${shortCount(total)}${dtypes.length ? `; ${dtypes.join(', ')}` : ''})`;
  if (quantized) {
    const estimate = quantized.estimatedTotal === null ? 'unknown' : `about ${shortCount(quantized.estimatedTotal)}`;
    text += `; ${quantized.scheme} packed, unpacked ${estimate}`;
  }
  return text;
}

/**
 * 1536 → "1.5 KiB" (KiB, MiB, GiB, TiB; below 1024 in bytes).
 * @param {number} n
 */
export function shortBytes(n) {
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let unit = -1;
  while (unit + 1 < units.length && n >= 1024 ** (unit + 1) * 1024) unit++;
  if (unit >= 0) return `${(n / 1024 ** (unit + 1)).toFixed(1)} ${units[unit]}`;
  return n === 1 ? '1 byte' : `${n} bytes`;
}

/**
 * "14.0 MiB stored (BF16 14.0 MiB); 16-bit 14.0 MiB, 8-bit 7.0 MiB, 4-bit 3.5 MiB" (weights alone).
 * @param {import('../index.js').ModelCard} card
 */
export function memoryText(card) {
  const { bytes, byDtype, at16Bit, at8Bit, at4Bit } = card.memory;
  const dtypes = Object.entries(byDtype)
    .sort((x, y) => y[1] - x[1])
    .map(([d, n]) => `${d} ${shortBytes(n)}`);
  let text = `${shortBytes(bytes)} stored${dtypes.length > 1 ? ` (${dtypes.join(', ')})` : ''}`;
  if (at16Bit !== null && at8Bit !== null && at4Bit !== null)
    text += `; 16-bit ${shortBytes(at16Bit)}, 8-bit ${shortBytes(at8Bit)}, 4-bit ${shortBytes(at4Bit)}`;
  return text;
}

/**
 * "125.0 MiB per 1,000 tokens (32 layers × 8 KV heads × 128 × BF16, config.json)", or null
 * when the card has no KV cache estimate.
 * @param {import('../index.js').ModelCard} card
 */
export function kvCacheText(card) {
  const kv = card.memory.kvCache;
  if (!kv) return null;
  const heads = `${kv.kvHeads} KV head${kv.kvHeads === 1 ? '' : 's'}`;
  return `${shortBytes(kv.bytesPer1000Tokens)} per 1,000 tokens (${kv.layers} layers × ${heads} × ${kv.headDim} × ${kv.dtype}, ${kv.source})`;
}

/**
 * "3 vectors of width 768" for a textual inversion, or null for any other card.
 * @param {import('../index.js').ModelCard} card
 */
export function embeddingText(card) {
  const emb = card.embedding;
  return emb ? `${emb.vectors} vector${emb.vectors === 1 ? '' : 's'} of width ${emb.width}` : null;
}

/**
 * The training values worth a glance, as [label, value] pairs (empty when the card has none).
 * @param {import('../index.js').ModelCard} card
 * @returns {[string, string][]}
 */
export function trainingSummary(card) {
  const t = card.training;
  if (!t) return [];
  /** @type {[string, string][]} */
  const out = [];
  for (const [key, label] of TRAINING_SUMMARY) {
    const v = t[key];
    if (v !== undefined && v !== null && v !== '') out.push([label, String(v)]);
  }
  return out;
}

/**
 * The Unicode bidirectional controls (embeddings, overrides, isolates, marks): in a name or a
 * metadata value they can make text read in another order than it is stored ("Trojan Source",
 * CVE-2021-42574), e.g. a tensor name that displays as another.
 */
export const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` with each bidi control shown as its code point, "[U+202E]", so that it is seen and
 * does nothing.
 * @param {string} text
 */
export function markBidiControls(text) {
  return text.replace(BIDI_CONTROLS, (c) => `[U+${c.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')}]`);
}

/**
 * "the adapter is for Stable Diffusion 1.x (sd1); the base is SDXL (sdxl)" when an adapter that
 * does not fit is of another family than its base; null otherwise.
 * @param {import('../index.js').CheckAdapterResult} r
 */
export function familyMismatchText(r) {
  const [a, b] = [r.adapterFamily, r.baseFamily];
  if (r.compatible || !a || !b || a.id === b.id) return null;
  return `the adapter is for ${a.name} (${a.id}); the base is ${b.name} (${b.id})`;
}
