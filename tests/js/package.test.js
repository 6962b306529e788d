// What the published package says about itself (issue 30, item 17): a LICENSE of the license
// package.json declares, named in the README; where the project lives; and README links that
// all lead to files the package ships (the README is the npm page).
import { expect, test } from 'vitest';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const pkg = JSON.parse(read('package.json'));

test('a LICENSE of the declared license, named in the README; the repository in package.json', () => {
  expect(pkg.license).toBe('MIT');
  expect(read('LICENSE')).toMatch(/^MIT License\n/);
  expect(read('README.md')).toMatch(/## License\n\nMIT \(\[LICENSE\]\(LICENSE\)/);
  expect(pkg.repository?.type).toBe('git');
  expect(pkg.repository?.url).toMatch(/safetensors-wasm/);
});

test('every relative link in the README is to a file the package ships', async () => {
  const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT });
  const shipped = new Set(JSON.parse(stdout)[0].files.map((f) => f.path));
  expect(shipped).toContain('LICENSE');
  const links = [...read('README.md').matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
    .map((m) => m[1])
    .filter((target) => !/^[a-z]+:/i.test(target));
  expect(links.length).toBeGreaterThan(0);
  for (const target of links) expect(shipped, target).toContain(target.replace(/^\.\//, ''));
});
