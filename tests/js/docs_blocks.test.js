// Every runnable code block of README.md and docs/*.md runs as written (issue 38): each ```js
// block is either run here (a Node script, in a folder holding a small LoRA as
// model.safetensors: the demo's sample, tests/checkpoints/views.pt as model.pt and
// embedding_sd1.pt as embedding.pt), a README "Try it" block (run by
// tests/browser/bundle.test.js against the packed package), or marked
// `<!-- fragment: why -->` on the line before it. Other languages (sh, html) are not run here.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// Inside the package, so that `import ... from 'safetensors-wasm'` resolves to it (self-reference).
const SCRIPTS = join(ROOT, 'build', 'docs_blocks');
const SAMPLE = join(ROOT, 'demo', 'sample.safetensors');
// docs/pickles.md's openCheckpoint example reads it as model.pt (torch.save of views).
const CHECKPOINT = join(ROOT, 'tests', 'checkpoints', 'views.pt');
// Its describe() example reads an A1111 textual inversion as embedding.pt.
const EMBEDDING = join(ROOT, 'tests', 'checkpoints', 'embedding_sd1.pt');

/** The ```js blocks of a Markdown text, each with the line before its fence. */
function jsBlocks(text) {
  return [...text.matchAll(/(?:^|\n)([^\n]*)\n```js\n([\s\S]*?)\n```/g)].map((m) => ({ before: m[1], code: m[2] }));
}

const pages = [
  'README.md',
  ...(await readdir(join(ROOT, 'docs'))).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`),
];
const blocks = [];
for (const page of pages) {
  jsBlocks(await readFile(join(ROOT, page), 'utf8')).forEach((block, i) =>
    blocks.push({ page, index: i + 1, ...block }),
  );
}
const tryIt = blocks.filter((b) => b.before.startsWith('<!-- try-it:'));
const fragments = blocks.filter((b) => /^<!-- fragment: \S.* -->$/.test(b.before));
const runnable = blocks.filter((b) => !tryIt.includes(b) && !fragments.includes(b));

test('the README\'s "Try it" js blocks are the ones tests/browser/bundle.test.js runs', async () => {
  const bundleTest = await readFile(join(ROOT, 'tests/browser/bundle.test.js'), 'utf8');
  expect(tryIt.map((b) => b.page)).toEqual(['README.md', 'README.md']);
  for (const { before } of tryIt) {
    const tag = before.match(/^<!-- try-it:([\w-]+) -->$/)?.[1];
    expect(bundleTest, before).toContain(`tryIt('${tag}', 'js')`);
  }
});

test('a block marked as a fragment says why', () => {
  for (const b of blocks.filter((x) => x.before.startsWith('<!-- fragment')))
    expect(fragments, `${b.page} block ${b.index}`).toContain(b);
});

describe('each unmarked js block of the docs runs in Node', () => {
  let work;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'stw-docs-'));
    await copyFile(SAMPLE, join(work, 'model.safetensors'));
    await copyFile(CHECKPOINT, join(work, 'model.pt'));
    await copyFile(EMBEDDING, join(work, 'embedding.pt'));
    await mkdir(SCRIPTS, { recursive: true });
  });
  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  test('there are runnable blocks on several pages', () => {
    expect(runnable.length).toBeGreaterThanOrEqual(8);
    expect(new Set(runnable.map((b) => b.page)).size).toBeGreaterThanOrEqual(3);
  });

  test.each(runnable.map((b) => [`${b.page} block ${b.index}`, b]))('%s', async (_, block) => {
    const script = join(SCRIPTS, `${block.page.replace(/[/.]/g, '_')}_${block.index}.mjs`);
    await writeFile(script, block.code);
    // Killed before the test's own 60 s, so that a block that hangs says where: still at work
    // (nothing or part printed) or done and not exiting (everything printed).
    const { stdout } = await run(process.execPath, [script], {
      cwd: work,
      timeout: 45_000,
      killSignal: 'SIGKILL',
    }).catch((error) => {
      const how = error.killed ? 'was still running after 45 s' : `exited with code ${error.code}`;
      throw new Error(
        `${block.page} block ${block.index} ${how}; it printed ${JSON.stringify(error.stdout)}, and on stderr ${JSON.stringify(error.stderr)}`,
      );
    });
    expect(stdout.length, 'a block shows what it does').toBeGreaterThan(0);
  });
});
