// Readers for the card module's tables (cpp/wasm/card_table.h): the card's JSON and its module
// tree, and the public ModelCard made of them.
import { TableReader } from '../core/table_reader.js';

/**
 * Decodes a card table (cpp/wasm/card_table.h): the card's JSON, how its module tree splits
 * names, and how many tensors were sized from dtype and shape (their data_offsets untrusted).
 * @param {Uint8Array} bytes
 */
export function decodeCardTable(bytes) {
  const r = new TableReader(bytes);
  return { json: r.str(), kohyaNames: r.num() === 1, sizedFromShapes: r.num() };
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
    const node = {
      name,
      path: name,
      tensors: sums[3 * i],
      parameters: sums[3 * i + 1],
      bytes: sums[3 * i + 2],
      own: [],
      children: [],
    };
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
 * look at them; BENCHMARKS.md, "Opening a header and the model card"). It reads like any property, spreads and
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
