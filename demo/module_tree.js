// The tensor list as a collapsible tree of modules (st.describe().modules): a node's
// children and tensors are built when it is first opened, so a 20,000-tensor file costs a
// few elements until someone looks. Names are text (textContent), never HTML, their bidi
// controls shown.
import { shortCount } from '../web/card/card_text.js';
import { cell, el, plural, shortBytes, shown } from './text.js';

const NATURAL = new Intl.Collator('en', { numeric: true });

/** Above this many tensors "Expand all" is refused (the page would build them all). */
export const EXPAND_ALL_LIMIT = 5000;

const counts = (node) =>
  `${plural(node.tensors, 'tensor')} · ${shortCount(node.parameters)} parameters · ${shortBytes(node.bytes)}`;

/**
 * @param {HTMLElement} root the tree's container
 * @param {import('../web/index.js').ModuleNode} tree
 * @param {import('../web/index.js').TensorInfo[]} tensors
 * @param {(row: HTMLTableRowElement, name: string) => void} decorate adds a tensor row's last cell
 */
export function showModuleTree(root, tree, tensors, decorate) {
  function tensorTable(node) {
    const table = el('table', { className: 'tensors' });
    table.dataset.testid = 'tensor-table';
    const head = table.createTHead().insertRow();
    // A sharded model's tensors say which shard holds them (their offsets are in that shard).
    const sharded = tensors[0]?.shard !== undefined;
    for (const title of [
      'Name',
      'Dtype',
      'Shape',
      ...(sharded ? ['Shard'] : []),
      'Offsets',
      'Bytes',
      'Values (after a scan)',
    ])
      head.append(el('th', { textContent: title }));
    const body = table.createTBody();
    const cut = node.path === '' ? 0 : node.path.length + 1; // "model.layers.0" + "." + the part shown
    for (const index of node.own) {
      const t = tensors[index];
      const row = body.insertRow();
      row.dataset.name = t.name;
      cell(row, cut > 0 && t.name.length > cut ? t.name.slice(cut) : t.name).title = shown(t.name);
      cell(row, t.dtype);
      cell(row, `[${t.shape.join(', ')}]`);
      if (sharded) cell(row, t.shard);
      cell(row, `${t.dataOffsets[0]}–${t.dataOffsets[1]}`);
      cell(row, t.byteLength.toLocaleString('en'));
      decorate(row, t.name);
    }
    return table;
  }

  // Fills a node's box with its child modules (closed, in natural order: layers_2 before
  // layers_10) and a table of its own tensors.
  function fill(box, node) {
    for (const child of [...node.children].sort((a, b) => NATURAL.compare(a.name, b.name)))
      box.append(moduleBox(child));
    if (node.own.length > 0) box.append(tensorTable(node));
  }

  function moduleBox(node) {
    const summary = el(
      'summary',
      {},
      el('span', { className: 'module', textContent: shown(node.name) }),
      el('span', { className: 'counts', textContent: counts(node) }),
    );
    const box = el('details', {}, summary);
    box.dataset.path = node.path;
    box.addEventListener('toggle', () => {
      if (box.open && box.childElementCount === 1) fill(box, node);
    });
    return box;
  }

  root.replaceChildren();
  fill(root, tree);
}

/**
 * Opens every module box (building the ones never opened), for files of at most EXPAND_ALL_LIMIT tensors.
 * @param {HTMLElement} root
 * @returns {boolean} false when refused
 */
export function expandAll(root, tensorCount) {
  if (tensorCount > EXPAND_ALL_LIMIT) return false;
  // Opening fills a box synchronously (toggle fires later, so fill through a click-free path).
  for (
    let closed = root.querySelector('details:not([open])');
    closed;
    closed = root.querySelector('details:not([open])')
  ) {
    closed.open = true;
    closed.dispatchEvent(new Event('toggle'));
  }
  return true;
}
