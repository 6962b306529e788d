// What the published package says about itself (issue 30, item 17): a LICENSE of the license
// package.json declares, named in the README; where the project lives; and README and docs/
// links that lead to files and headings that exist (the README is the npm page).
import { expect, test } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { posix } from 'node:path';

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const pkg = JSON.parse(read('package.json'));

test('a LICENSE of the declared license, named in the README; the repository in package.json', () => {
  expect(pkg.license).toBe('MIT');
  expect(read('LICENSE')).toMatch(/^MIT License\n/);
  expect(read('README.md')).toMatch(/## License\n\nMIT \(\[LICENSE\]\(LICENSE\)/);
  expect(pkg.repository?.type).toBe('git');
  expect(pkg.repository?.url).toMatch(/safetensors-wasm/);
});

// npm shows the README with relative links resolved against `repository`, as GitHub does.
test('every relative link in the README and docs/ leads to a file of the repository, and an anchor to a heading there', () => {
  const pages = ['README.md', ...readdirSync(new URL('../../docs/', import.meta.url)).map((f) => `docs/${f}`)];
  const slug = (heading) =>
    heading
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
  let links = 0;
  for (const page of pages.filter((p) => p.endsWith('.md'))) {
    for (const [, target, anchor] of read(page).matchAll(/\]\(([^)#\s]*)(?:#([^)\s]*))?\)/g)) {
      if (/^[a-z]+:/i.test(target)) continue;
      const path = target === '' ? page : posix.normalize(posix.join(posix.dirname(page), target));
      expect(existsSync(new URL(`../../${path}`, import.meta.url)), `${page}: ${target}`).toBe(true);
      if (anchor) {
        const headings = [...read(path).matchAll(/^#+ (.*)$/gm)].map((m) => slug(m[1]));
        expect(headings, `${page}: ${target}#${anchor}`).toContain(anchor);
      }
      links += 1;
    }
  }
  expect(links).toBeGreaterThan(10);
});
