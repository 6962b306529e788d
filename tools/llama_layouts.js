// Sharded checkpoints laid out as Meta's Llama 3.1 405B and 70B are on the Hub (tensor names,
// BF16 shapes, shard count, config.json), headers only: each shard is its length prefix and
// header, the data (hundreds of GB) never written. For the sharded benchmarks and the tests that
// open a big model over a slow network (tests/js/layout_server.js serves them).

const encoder = new TextEncoder();

/**
 * The sizes of meta-llama/Llama-3.1-405B and Llama-3.1-70B (their config.json: hidden_size,
 * intermediate_size, num_hidden_layers, num_attention_heads, num_key_value_heads, vocab_size;
 * their model.safetensors.index.json: 191 and 30 shards).
 */
export const LLAMA_LAYOUTS = {
  '405B': { layers: 126, hidden: 16384, ffn: 53248, heads: 128, kvHeads: 8, vocab: 128256, shards: 191 },
  '70B': { layers: 80, hidden: 8192, ffn: 28672, heads: 64, kvHeads: 8, vocab: 128256, shards: 30 },
};

/**
 * A safetensors file's first bytes (length prefix + header) for tensors laid out in the order
 * given, and the file's whole size.
 * @param {{ name: string, dtype: string, shape: number[], bytes: number }[]} tensors
 * @param {Record<string, string>} [metadata]
 */
export function headerOf(tensors, metadata = { format: 'pt' }) {
  let at = 0;
  const entries = [`"__metadata__":${JSON.stringify(metadata)}`];
  for (const t of tensors) {
    entries.push(
      `${JSON.stringify(t.name)}:{"dtype":"${t.dtype}","shape":${JSON.stringify(t.shape)},"data_offsets":[${at},${at + t.bytes}]}`,
    );
    at += t.bytes;
  }
  let text = `{${entries.join(',')}}`;
  text += ' '.repeat((8 - (text.length % 8)) % 8);
  const header = encoder.encode(text);
  const head = new Uint8Array(8 + header.byteLength);
  new DataView(head.buffer).setBigUint64(0, BigInt(header.byteLength), true);
  head.set(header, 8);
  return { head, size: head.byteLength + at };
}

/** transformers' shard name: model-00001-of-00191.safetensors. */
export const shardName = (/** @type {number} */ s, /** @type {number} */ count) =>
  `model-${String(s + 1).padStart(5, '0')}-of-${String(count).padStart(5, '0')}.safetensors`;

/**
 * A Llama 3.1 model's files, headers only: shards (file name -> first bytes and size), the
 * index and config.json as bytes, and what a test checks them against.
 * @param {keyof typeof LLAMA_LAYOUTS} which
 */
export function llamaLayout(which) {
  const { layers, hidden, ffn, heads, kvHeads, vocab, shards: count } = LLAMA_LAYOUTS[which];
  const kv = kvHeads * (hidden / heads);
  const list = [{ name: 'model.embed_tokens.weight', shape: [vocab, hidden] }];
  for (let l = 0; l < layers; l++) {
    const p = `model.layers.${l}`;
    list.push(
      { name: `${p}.input_layernorm.weight`, shape: [hidden] },
      { name: `${p}.post_attention_layernorm.weight`, shape: [hidden] },
      { name: `${p}.self_attn.q_proj.weight`, shape: [hidden, hidden] },
      { name: `${p}.self_attn.k_proj.weight`, shape: [kv, hidden] },
      { name: `${p}.self_attn.v_proj.weight`, shape: [kv, hidden] },
      { name: `${p}.self_attn.o_proj.weight`, shape: [hidden, hidden] },
      { name: `${p}.mlp.gate_proj.weight`, shape: [ffn, hidden] },
      { name: `${p}.mlp.up_proj.weight`, shape: [ffn, hidden] },
      { name: `${p}.mlp.down_proj.weight`, shape: [hidden, ffn] },
    );
  }
  list.push({ name: 'model.norm.weight', shape: [hidden] }, { name: 'lm_head.weight', shape: [vocab, hidden] });
  const tensors = list.map((t) => ({ ...t, dtype: 'BF16', bytes: t.shape.reduce((a, b) => a * b, 1) * 2 }));
  /** @type {Map<string, { head: Uint8Array, size: number }>} */
  const shards = new Map();
  /** @type {Record<string, string>} */
  const weightMap = {};
  for (let s = 0; s < count; s++) {
    const mine = tensors.slice(
      Math.floor((s * tensors.length) / count),
      Math.floor(((s + 1) * tensors.length) / count),
    );
    shards.set(shardName(s, count), headerOf(mine));
    for (const t of mine) weightMap[t.name] = shardName(s, count);
  }
  const totalSize = tensors.reduce((sum, t) => sum + t.bytes, 0);
  const config = {
    architectures: ['LlamaForCausalLM'],
    hidden_size: hidden,
    intermediate_size: ffn,
    model_type: 'llama',
    num_attention_heads: heads,
    num_hidden_layers: layers,
    num_key_value_heads: kvHeads,
    torch_dtype: 'bfloat16',
    vocab_size: vocab,
  };
  return {
    shards,
    index: encoder.encode(JSON.stringify({ metadata: { total_size: totalSize }, weight_map: weightMap }, null, 2)),
    config: encoder.encode(JSON.stringify(config, null, 2)),
    tensors: tensors.length,
    parameters: totalSize / 2,
    totalSize,
    /** K and V of every layer, BF16, per token. */
    kvBytesPerToken: 2 * layers * kv * 2,
  };
}
