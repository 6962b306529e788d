// openCheckpoint(file).describe() in Chromium on a picked A1111 textual inversion: the card
// module loads in the page and gives the card Node gives (kind embedding, SD 1.x, its vectors,
// name and step).
import { expect, test } from 'vitest';
import { fileURLToPath } from 'node:url';
import { demoBrowser, openDemo, pickInPage } from './demo_browser.js';
import { openCheckpoint } from '../../web/index.js';

const demo = demoBrowser('stw-browser-ckcard-');
const DIR = fileURLToPath(new URL('../checkpoints/', import.meta.url));

test("describe() of a picked .pt: Node's card, from the card module loaded in the page", async () => {
  const { page, errors } = await openDemo(demo);
  const files = [`${DIR}embedding_sd1.pt`, `${DIR}lightning.ckpt`];
  await pickInPage(page, files);
  // A string, not a function: Vitest rewrites import() inside functions it compiles.
  const inPage = await page.evaluate(`(async () => {
    const { openCheckpoint } = await import('/web/index.js');
    const picked = [...document.querySelector('[data-testid=two-files]').files];
    const cards = [];
    for (const file of picked) cards.push(await (await openCheckpoint(file)).describe());
    const wasm = performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.endsWith('.wasm'));
    return { cards: JSON.parse(JSON.stringify(cards)), wasm };
  })()`);
  const inNode = [];
  for (const file of files) inNode.push(JSON.parse(JSON.stringify(await (await openCheckpoint(file)).describe())));
  expect(inPage.cards).toEqual(inNode);
  expect(inPage.cards[0]).toMatchObject({ kind: 'embedding', family: { id: 'sd1' } });
  expect(inPage.cards[0].embedding).toEqual({ vectors: 3, width: 768, name: 'sd1-style', step: 1500 });
  expect(inPage.cards[1].training).toMatchObject({ epoch: 3, global_step: 120 });
  expect(inPage.wasm.some((url) => url.endsWith('/safetensors_card.wasm'))).toBe(true);
  expect(errors).toEqual([]);
});
