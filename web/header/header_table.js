// Reader for the packed report written by cpp/wasm/header_table.cpp (sequence described there).
import { TableReader, readFindings, withTensor } from '../core/table_reader.js';

/**
 * Decodes a packed report (a copy, not a view on the wasm heap).
 * @param {Uint8Array} bytes
 * @param {ReturnType<typeof import('../core/tables.js').decodeCoreTables>} tables
 */
export function decodeHeaderTable(bytes, tables) {
  const r = new TableReader(bytes);
  const referenceError = tables.referenceErrors[r.num()];
  // The verdict is the first finding when the reference rejects the file.
  const rejection = referenceError === null ? [] : [withTensor(r, { code: referenceError, severity: tables.referenceErrorSeverity, message: r.str() })];
  const fileSize = r.num();
  const headerSize = r.num();
  const dataStart = r.num();
  const findings = [...rejection, ...readFindings(r, tables)];

  const metadataCount = r.num();
  let metadata = null;
  if (metadataCount >= 0) {
    // fromEntries defines own properties, so keys such as "__proto__" stay plain data.
    const entries = new Array(metadataCount);
    for (let i = 0; i < metadataCount; i++) entries[i] = [r.str(), r.str()];
    metadata = Object.fromEntries(entries);
  }

  const count = r.num();
  const tensors = new Array(count);
  const dtypeIndex = new Uint8Array(count); // kept beside the public objects: no name lookups per read
  for (let i = 0; i < count; i++) {
    const name = r.str();
    const dtype = r.num();
    const shape = new Array(r.num());
    for (let d = 0; d < shape.length; d++) shape[d] = r.num();
    const begin = r.num();
    const end = r.num();
    const tensor = { name, dtype: tables.dtypes[dtype].name, shape, dataOffsets: [begin, end], byteLength: end - begin };
    if (r.num() === 1) tensor.exactShape = shape.map(() => BigInt(r.str()));
    tensors[i] = tensor;
    dtypeIndex[i] = dtype;
  }
  // `table` stays for the model card's module (web/card/model_card.js), which reads it back.
  const table = bytes;
  return { referenceError, fileSize, headerSize, dataStart, findings, metadata, tensors, dtypeIndex, table };
}

/**
 * Decodes a card table (cpp/wasm/card_table.h): the card's JSON, and how its module tree
 * splits names.
 * @param {Uint8Array} bytes
 */
export function decodeCardTable(bytes) {
  const r = new TableReader(bytes);
  return { json: r.str(), kohyaNames: r.num() === 1 };
}

/**
 * Decodes a module tree table (cpp/wasm/card_table.h): flat, parents first (nested by moduleTree()).
 * @param {Uint8Array} bytes
 * @param {number} tensorCount
 */
export function decodeModuleTreeTable(bytes, tensorCount) {
  const r = new TableReader(bytes);
  const count = r.num();
  const parent = new Uint32Array(count);
  const separator = new Uint16Array(count);
  const names = new Array(count);
  const sums = new Float64Array(count * 3); // tensors, parameters, bytes
  for (let i = 0; i < count; i++) {
    parent[i] = r.num();
    names[i] = r.str();
    separator[i] = r.num();
    sums[3 * i] = r.num();
    sums[3 * i + 1] = r.num();
    sums[3 * i + 2] = r.num();
  }
  const nodeOf = new Uint32Array(tensorCount);
  for (let t = 0; t < tensorCount; t++) nodeOf[t] = r.num();
  return { parent, separator, names, sums, nodeOf };
}

/**
 * A new nested tree of ModuleNodes from the flat form.
 * @param {ReturnType<typeof decodeModuleTreeTable>} flat
 * @returns {import('../index.js').ModuleNode}
 */
export function moduleTree({ parent, separator, names, sums, nodeOf }) {
  /** @type {import('../index.js').ModuleNode[]} */
  const nodes = new Array(names.length);
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    const node = { name, path: name, tensors: sums[3 * i], parameters: sums[3 * i + 1], bytes: sums[3 * i + 2], own: [], children: [] };
    if (i > 0) {
      const up = nodes[parent[i]];
      if (up.path !== '') node.path = up.path + String.fromCharCode(separator[i]) + name;
      up.children.push(node);
    }
    nodes[i] = node;
  }
  for (let t = 0; t < nodeOf.length; t++) nodes[nodeOf[t]].own.push(t);
  return nodes[0];
}

/**
 * The public ModelCard of a built card: its JSON parsed, and `modules`, whose tree is built and
 * nested on its first read (a 20,000-tensor model has 6,000 modules: most card readers never
 * look at them; BENCHMARKS.md, "The model card"). It reads like any property, spreads and
 * serialises (JSON, postMessage) with the tree, and can be assigned.
 * @param {{ json: string, moduleTree: () => Parameters<typeof moduleTree>[0] }} card
 * @returns {import('../index.js').ModelCard}
 */
export function cardObject(card) {
  const described = JSON.parse(card.json);
  const settle = (/** @type {object} */ target, /** @type {unknown} */ value) =>
    Object.defineProperty(target, 'modules', { value, writable: true, enumerable: true, configurable: true });
  Object.defineProperty(described, 'modules', {
    enumerable: true,
    configurable: true,
    get() {
      const modules = moduleTree(card.moduleTree());
      settle(this, modules);
      return modules;
    },
    set(value) {
      settle(this, value);
    },
  });
  return described;
}
