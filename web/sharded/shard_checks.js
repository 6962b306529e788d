// The checks across the shards of one model: which shard holds each tensor the index names,
// and what does not fit (README, "Findings": IndexTensorMissing, UnindexedTensor,
// TensorInSeveralShards, IndexTotalSizeMismatch). Findings of one code and shard are
// aggregated into one (the count and the first names), so a broken index of 500,000 entries
// still gives a short list.

/** Names quoted in an aggregated finding's message. */
const NAMES_SHOWN = 3;

/** @typedef {import('../index.js').TensorInfo} TensorInfo */
/** @typedef {import('../index.js').Finding} Finding */
/** @typedef {TensorInfo & { shard: string }} ShardTensor */
/**
 * The tensors of one code and shard: `count` of them, the first NAMES_SHOWN named; `text` says
 * what the group's finding says.
 * @typedef {{ code: import('../index.js').FindingCode, shard: string, names: string[], count: number, text: (group: Group) => string }} Group
 */

/** Collects names per (code, shard) and turns each group into one finding. */
class Groups {
  constructor() {
    /** @type {Map<string, Group>} */
    this.groups = new Map();
  }

  /**
   * @param {Group['code']} code
   * @param {string} shard
   * @param {string} name
   * @param {Group['text']} text
   */
  add(code, shard, name, text) {
    const key = `${code}\u0000${shard}`;
    let group = this.groups.get(key);
    if (!group) this.groups.set(key, (group = { code, shard, names: [], count: 0, text }));
    group.count++;
    if (group.names.length < NAMES_SHOWN) group.names.push(name);
  }

  /** @param {(code: string) => Finding['severity']} severity */
  findings(severity) {
    return [...this.groups.values()].map((g) => ({
      code: g.code,
      severity: severity(g.code),
      message: g.text(g),
      tensor: g.names[0],
      shard: g.shard,
    }));
  }
}

/**
 * "a", "b", "c" and 4 more
 * @param {Pick<Group, 'names' | 'count'>} group
 */
function someNames({ names, count }) {
  const quoted = names.map((n) => JSON.stringify(n)).join(', ');
  return count > names.length ? `${quoted} and ${count - names.length} more` : quoted;
}

const tensorsText = (/** @type {number} */ count) => (count === 1 ? '1 tensor' : `${count} tensors`);

/**
 * The common case, with no Map of every name: every shard was read and holds exactly the
 * index's entries for it. Compared in order first (writers list a shard's tensors in the
 * index's order when they share one dtype); a shard whose order differs is matched through a
 * Map of its own names. The index's names are distinct, so no name is in two shards then.
 * @param {import('./shard_index.js').ShardIndex} index
 * @param {{ name: string, tensors: TensorInfo[] | null }[]} shards
 * @returns {ShardTensor[] | null} the tensors in index order; null when some tensor is missing,
 *   extra or in an unread shard (the general checks then say which)
 */
function matchedInOrder(index, shards) {
  const { names, shardOf } = index;
  if (shards.length !== index.shards.length || shards.some((s) => s.tensors === null)) return null;
  const lists = /** @type {TensorInfo[][]} */ (shards.map((s) => s.tensors));
  const matched = new Uint32Array(shards.length); // per shard: its tensors matched so far
  const inOrder = new Uint8Array(shards.length).fill(1);
  const tensors = /** @type {ShardTensor[]} */ (new Array(names.length));
  for (let i = 0; i < names.length; i++) {
    const s = shardOf[i];
    if (inOrder[s] === 0) continue;
    const tensor = lists[s][matched[s]];
    if (tensor !== undefined && tensor.name === names[i]) {
      tensors[i] = /** @type {ShardTensor} */ (tensor);
      matched[s]++;
    } else {
      inOrder[s] = 0;
    }
  }
  if (inOrder.includes(0)) {
    /** @type {(Map<string, TensorInfo> | null)[]} */
    const byName = lists.map((list, s) => (inOrder[s] ? null : new Map(list.map((t) => [t.name, t]))));
    for (let s = 0; s < shards.length; s++) if (!inOrder[s]) matched[s] = 0;
    for (let i = 0; i < names.length; i++) {
      const map = byName[shardOf[i]];
      if (map === null) continue;
      const tensor = map.get(names[i]);
      if (tensor === undefined) return null;
      tensors[i] = /** @type {ShardTensor} */ (tensor);
      matched[shardOf[i]]++;
    }
  }
  for (let s = 0; s < shards.length; s++) {
    if (matched[s] !== lists[s].length) return null;
    for (const tensor of lists[s]) /** @type {ShardTensor} */ (tensor).shard = shards[s].name;
  }
  return tensors;
}

/**
 * Matches the index against what the shards hold.
 * @param {import('./shard_index.js').ShardIndex | null} index null: no index, every shard is part of the model
 * @param {{ name: string, tensors: TensorInfo[] | null }[]} shards the index's shards in its order (then any
 *   others); `tensors` null for a shard that was not read (missing, unsafe, rejected): its own finding covers it
 * @param {(code: string) => Finding['severity']} severity
 * @returns {{ tensors: ShardTensor[], findings: Finding[] }}
 *   tensors: the index's tensors in its order, then tensors only the shards name, in shard order
 */
export function checkShards(index, shards, severity) {
  const matched = index ? matchedInOrder(index, shards) : null;
  if (matched !== null) return { tensors: matched, findings: totalSizeFindings(index, matched, severity) };
  const groups = new Groups();
  // Every tensor of every shard gets a number: tensor k of shard s is base[s] + k. Numbers,
  // typed arrays and one Map keep this fast at 500,000 tensors (no object per tensor).
  const base = new Float64Array(shards.length + 1);
  for (let s = 0; s < shards.length; s++) base[s + 1] = base[s] + (shards[s].tensors?.length ?? 0);
  const total = base[shards.length];
  const shardOfId = new Uint32Array(total);
  const tensorOf = (/** @type {number} */ id) =>
    /** @type {TensorInfo[]} */ (shards[shardOfId[id]].tensors)[id - base[shardOfId[id]]];
  /** @type {Map<string, number>} each name's first holder */
  const held = new Map();
  /** @type {Map<string, number[]>} the further holders of names held twice or more */
  const copies = new Map();
  const isCopy = new Uint8Array(total);
  for (let s = 0, id = 0; s < shards.length; s++) {
    const shard = shards[s].name;
    for (const tensor of /** @type {ShardTensor[]} */ (shards[s].tensors ?? [])) {
      tensor.shard = shard; // the shard's own objects: no copy of 500,000 of them
      shardOfId[id] = s;
      const first = held.get(tensor.name);
      if (first === undefined) held.set(tensor.name, id);
      else {
        isCopy[id] = 1;
        copies.set(tensor.name, [...(copies.get(tensor.name) ?? []), id]);
        groups.add(
          'TensorInSeveralShards',
          shards[s].name,
          tensor.name,
          (g) =>
            `shard ${JSON.stringify(g.shard)} holds ${tensorsText(g.count)} that an earlier shard holds too (${someNames(g)}); which copy a loader keeps depends on its order`,
        );
      }
      id++;
    }
  }
  /** @type {ShardTensor[]} */
  const tensors = [];
  const listed = new Uint8Array(total); // by first holder: the name is in `tensors`
  const take = (/** @type {number} */ id) => tensors.push(/** @type {ShardTensor} */ (tensorOf(id)));
  if (index) {
    const { names, shardOf } = index;
    for (let i = 0; i < names.length; i++) {
      const s = shardOf[i];
      if (shards[s].tensors === null) continue;
      const name = names[i];
      const first = held.get(name);
      let id = first !== undefined && shardOfId[first] === s ? first : undefined;
      if (id === undefined && first !== undefined) id = copies.get(name)?.find((c) => shardOfId[c] === s);
      if (first !== undefined && id !== undefined) {
        listed[first] = 1;
        take(id);
        continue;
      }
      groups.add(
        'IndexTensorMissing',
        shards[s].name,
        name,
        (g) =>
          `the index maps ${tensorsText(g.count)} to shard ${JSON.stringify(g.shard)}, which does not hold ${g.count === 1 ? 'it' : 'them'}: ${someNames(g)}; loading the model fails or leaves ${g.count === 1 ? 'it' : 'them'} uninitialised`,
      );
    }
  }
  // What the index does not name in its shard (a tensor it maps to another shard counts here too).
  for (let id = 0; id < total; id++) {
    if (listed[id] || isCopy[id]) continue;
    take(id);
    if (index) {
      groups.add(
        'UnindexedTensor',
        shards[shardOfId[id]].name,
        tensorOf(id).name,
        (g) =>
          `shard ${JSON.stringify(g.shard)} holds ${tensorsText(g.count)} the index does not name (${someNames(g)}); loaders that follow the index never see ${g.count === 1 ? 'it' : 'them'}`,
      );
    }
  }
  const complete = shards.every((s) => s.tensors !== null);
  return {
    tensors,
    findings: [...groups.findings(severity), ...(complete ? totalSizeFindings(index, tensors, severity) : [])],
  };
}

/**
 * IndexTotalSizeMismatch, when the index states a total_size other than the bytes of `tensors`
 * (every tensor of the model: only when every shard was read).
 * @param {import('./shard_index.js').ShardIndex | null} index
 * @param {ShardTensor[]} tensors
 * @param {(code: string) => Finding['severity']} severity
 * @returns {Finding[]}
 */
function totalSizeFindings(index, tensors, severity) {
  const totalSize = index?.metadata?.total_size;
  if (typeof totalSize !== 'number') return [];
  let bytes = 0;
  for (const t of tensors) bytes += t.byteLength;
  if (bytes === totalSize) return [];
  return [
    {
      code: 'IndexTotalSizeMismatch',
      severity: severity('IndexTotalSizeMismatch'),
      message: `the index's metadata.total_size is ${totalSize} bytes, but the tensors hold ${bytes}; the index was written for other shards, or edited`,
    },
  ];
}
