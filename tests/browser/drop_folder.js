// Drops a folder on the demo's drop zone in Chromium: a folder on disk through the DevTools
// protocol's Input.dispatchDragEvent (Chromium builds the drop's DataTransfer from the paths, as
// from a drag from the desktop), or a tree built in the page as a browser presents a drop (the
// DataTransfer lists the folder as one empty File; its item's webkitGetAsEntry() gives the
// directory entry), where the test controls the entries' batches.

const settled = (page) =>
  page.waitForFunction(() => document.body.dataset.state === 'done' || document.body.dataset.state === 'error');

/**
 * Drops a folder on the demo's drop zone as a browser does: the DataTransfer lists the folder
 * as one empty File, and its item's webkitGetAsEntry() gives the directory entry, whose reader
 * hands out children `batch` at a time (Chromium gives at most 100 per call).
 * @param {{ name: string, children?: any[], bytes?: number[] }} tree
 */
export async function dropFolder(page, tree, batch = 2) {
  await page.evaluate(
    ({ tree, batch }) => {
      const entry = (node, parent) => {
        const fullPath = `${parent}/${node.name}`;
        if (!node.children)
          return {
            isFile: true,
            isDirectory: false,
            name: node.name,
            fullPath,
            file: (ok) => setTimeout(() => ok(new File([new Uint8Array(node.bytes)], node.name))),
          };
        const children = node.children.map((c) => entry(c, fullPath));
        return {
          isFile: false,
          isDirectory: true,
          name: node.name,
          fullPath,
          createReader() {
            let at = 0;
            return {
              readEntries(ok) {
                setTimeout(() => {
                  ok(children.slice(at, at + batch));
                  at += batch;
                });
              },
            };
          },
        };
      };
      const root = entry(tree, '');
      const dataTransfer = {
        items: [{ kind: 'file', type: '', webkitGetAsEntry: () => root }],
        files: [new File([], tree.name)],
        types: ['Files'],
      };
      const event = new Event('drop', { bubbles: true, cancelable: true });
      Object.defineProperty(event, 'dataTransfer', { value: dataTransfer });
      document.body.dataset.state = 'picking';
      document.getElementById('drop').dispatchEvent(event);
    },
    { tree, batch },
  );
  await settled(page);
}

/**
 * Drops `paths` (files or folders on disk) on the demo's drop zone, as a drag from the desktop,
 * and waits until the page has shown them (or failed).
 * @param {import('playwright-core').Page} page
 * @param {string[]} paths
 */
export async function dropPaths(page, paths) {
  const zone = page.locator('#drop');
  await zone.scrollIntoViewIfNeeded(); // the drag lands at a point of the viewport: the zone must be in it
  const box = await zone.boundingBox();
  const cdp = await page.context().newCDPSession(page);
  const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const data = { items: [], files: paths, dragOperationsMask: 1 }; // 1: copy
  await page.evaluate(() => {
    document.body.dataset.state = 'picking';
  });
  for (const type of ['dragEnter', 'dragOver', 'drop'])
    await cdp.send('Input.dispatchDragEvent', { type, ...at, data });
  await cdp.detach();
  await settled(page);
}

/** A folder's tree for dropFolder: `files` maps names to bytes (no subfolders). */
export const folder = (name, files) => ({
  name,
  children: Object.entries(files).map(([file, bytes]) => ({ name: file, bytes: Array.from(bytes) })),
});
