// tools/import_cycles.js (run by make lint): it finds a circle of static imports, ignores dynamic
// import() and type-only JSDoc imports, and the project's own modules have none.
import { afterAll, expect, test } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importCycles } from '../../tools/import_cycles.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dirs = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

async function folder(files) {
  const dir = await mkdtemp(join(tmpdir(), 'stw-cycles-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

test('a circle through three modules is found once, with its files in order', async () => {
  const dir = await folder({
    'a.js': "import { b } from './b.js';\nexport const a = 1;\n",
    'b.js': "export { c as b } from './c.js';\n",
    'c.js': "import './a.js';\nexport const c = 2;\n",
    'd.js': "import { a } from './a.js';\n",
  });
  const cycles = importCycles([dir]);
  expect(cycles).toHaveLength(1);
  expect(cycles[0].map((f) => basename(f))).toEqual(['a.js', 'b.js', 'c.js']);
});

test('dynamic import() and JSDoc type imports close no circle', async () => {
  const dir = await folder({
    'a.js': "import { b } from './b.js';\n/** @param {import('./b.js').B} x */\nexport const a = (x) => x;\n",
    'b.js': "export const b = () => import('./a.js');\n",
  });
  expect(importCycles([dir])).toEqual([]);
});

test("the project's modules (web, demo, tools) have no import circle", () => {
  expect(importCycles(['web', 'demo', 'tools'].map((d) => join(ROOT, d)))).toEqual([]);
});
