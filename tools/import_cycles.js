#!/usr/bin/env node
// Import circles among the project's JS modules (make lint): follows every static relative
// `import … from` and `export … from` of the .js files under the folders given (default: web
// demo tools) and prints each circle found, exiting 1 when there is one. Dynamic import() is
// not followed: it runs after the importing module has loaded, so it closes no circle at load.
// Usage: node tools/import_cycles.js [DIR...]
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const STATIC = /^\s*(?:import|export)\s[^'"]*?\sfrom\s*['"](\.[^'"]+)['"]|^\s*import\s*['"](\.[^'"]+)['"]/gm;

/** @param {string} dir @returns {string[]} the .js files under dir, node_modules and wasm output aside */
function jsFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.js'))
    .map((e) => resolve(e.parentPath, e.name))
    .filter((f) => !/[/\\](node_modules|wasm)[/\\]/.test(f));
}

/** @param {string} file @returns {string[]} the files it imports statically */
function importsOf(file) {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(STATIC)].map((m) => resolve(dirname(file), m[1] ?? m[2]));
}

/** @param {string[]} dirs @returns {string[][]} each circle once, as the files along it */
export function importCycles(dirs) {
  const graph = new Map(dirs.flatMap(jsFiles).map((f) => [f, importsOf(f)]));
  const cycles = [];
  const state = new Map(); // file -> 'open' while on the path, 'done' after
  const path = [];
  const visit = (/** @type {string} */ file) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') cycles.push(path.slice(path.indexOf(next)));
      else if (!state.has(next) && graph.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return cycles;
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const root = join(dirname(new URL(import.meta.url).pathname), '..');
  const dirs = process.argv.length > 2 ? process.argv.slice(2) : ['web', 'demo', 'tools'].map((d) => join(root, d));
  const cycles = importCycles(dirs);
  for (const cycle of cycles) console.log([...cycle, cycle[0]].map((f) => relative(root, f)).join(' -> '));
  console.log(`${cycles.length} import circle(s)`);
  process.exitCode = cycles.length === 0 ? 0 : 1;
}
