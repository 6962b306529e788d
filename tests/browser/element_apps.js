// Shared by element_apps.test.js: the package packed and installed by name, with React, React
// DOM and Vue at this repository's versions, into one temporary consumer app whose pages hold
// docs/element.md's three snippets and README's element walk as written (each with the glue a
// real app has: an index.html, a main.jsx rendering <ModelPreview/>, a main.js mounting the
// Vue component), built by Vite as one multi-page app; and the small apps that measure what the
// element adds to a page's download (gzipped JS, against an app that only calls describe()).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { ROOT, run, tryIt } from './packed_app.js';

/** The code block of docs/element.md that follows `<!-- element:TAG -->`. */
export async function elementSnippet(tag, lang) {
  const page = await readFile(join(ROOT, 'docs', 'element.md'), 'utf8');
  const match = page.match(new RegExp(`<!-- element:${tag} -->\\n\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``));
  if (!match) throw new Error(`docs/element.md has no element:${tag} block`);
  return match[1];
}

/** The version of a package this repository has installed (its devDependency), for the app's install. */
async function installedVersion(name) {
  return JSON.parse(await readFile(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
}

const page = (title, body, script) =>
  `<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>${title}</title></head>\n<body>\n  ${body}\n  <script type="module" src="${script}"></script>\n</body>\n</html>\n`;

/** The pages of the multi-page app: each path under the app folder, and its text. */
async function appFiles() {
  return {
    // docs/element.md's plain HTML page is a whole page already.
    'html/index.html': await elementSnippet('html', 'html'),
    'react/index.html': page('ModelPreview in React', '<div id="root"></div>', './main.jsx'),
    'react/ModelPreview.jsx': await elementSnippet('react', 'jsx'),
    'react/main.jsx': [
      "import { createRoot } from 'react-dom/client';",
      "import { ModelPreview } from './ModelPreview.jsx';",
      '',
      "createRoot(document.getElementById('root')).render(<ModelPreview />);",
      '',
    ].join('\n'),
    'vue/index.html': page('ModelPreview in Vue', '<div id="app"></div>', './main.js'),
    'vue/ModelPreview.vue': await elementSnippet('vue', 'vue'),
    'vue/main.js': [
      "import { createApp } from 'vue';",
      "import ModelPreview from './ModelPreview.vue';",
      '',
      "createApp(ModelPreview).mount('#app');",
      '',
    ].join('\n'),
    'readme/index.html': await tryIt('element', 'html'),
  };
}

/**
 * The apps the size is measured on, each built alone: the element's import; a page that opens a
 * picked file and calls describe(); and the same page able to open what the element opens
 * (checkpoints, sharded models, pipelines, Civitai lookups: the package's functions the element
 * calls, each of which loads its code on first call). The third is the budget's baseline: with
 * any of those functions on a page, Rolldown (Vite 8) splits the package's open path into two
 * chunks (rolldown/rolldown#10731, "module already loaded by the entry is emitted as a separate
 * chunk"), which costs such a page 1-2 KB gzipped whether or not it uses the element.
 */
const SIZE_APPS = {
  element: "import 'safetensors-wasm/element';\n",
  describe: [
    "import { openSafetensors } from 'safetensors-wasm';",
    '',
    "document.querySelector('input').addEventListener('change', async (event) => {",
    '  const st = await openSafetensors(event.target.files[0]);',
    "  document.querySelector('pre').textContent = JSON.stringify(await st.describe());",
    '});',
    '',
  ].join('\n'),
  cardPage: [
    'import {',
    '  isPipelineSource, lookupCivitai, openCheckpoint, openSafetensors, openSafetensorsIndex, openSafetensorsPipeline,',
    '  validateSafetensors,',
    "} from 'safetensors-wasm';",
    '',
    "document.querySelector('input').addEventListener('change', async (event) => {",
    '  const [file] = event.target.files;',
    "  const open = file.name.endsWith('.json') ? openSafetensorsIndex : openSafetensors;",
    '  const st = await open(file);',
    "  document.querySelector('pre').textContent = JSON.stringify(await st.describe());",
    '  window.others = [isPipelineSource, lookupCivitai, openCheckpoint, openSafetensorsPipeline, validateSafetensors];',
    '});',
    '',
  ].join('\n'),
};

/** Lit's modules and the element's, as the split build puts them in chunks of their own. */
const LIT = /node_modules[\\/](lit|lit-html|lit-element|@lit)[\\/]/;
const ELEMENT = /web[\\/]element[\\/]/;
const PACKAGE = /node_modules[\\/]safetensors-wasm[\\/]/;

/** The Vue plugin as docs/element.md says: the tag is a custom element, not a Vue component. */
async function vuePlugin() {
  const { default: vue } = await import('@vitejs/plugin-vue');
  return vue({ template: { compilerOptions: { isCustomElement: (tag) => tag === 'safetensors-card' } } });
}

/**
 * Vite's build as `npx vite build` runs it: with NODE_ENV=production. Vitest sets it to `test`,
 * under which Vite resolves packages' development builds (Lit's dev mode, React's) and defines
 * process.env.NODE_ENV as `test` in the app.
 * @param {import('vite').InlineConfig} config
 */
async function viteBuild(config) {
  const { build } = await import('vite');
  const before = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    return await build({ configFile: false, logLevel: 'error', ...config });
  } finally {
    if (before === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = before;
  }
}

/**
 * Packs the package into `work`, installs it (and React, React DOM, Vue) by name into work/app,
 * writes the pages and builds them with Vite into app/dist, one multi-page build.
 * @param {string} work a temporary folder
 * @returns {Promise<{ app: string, dist: string, tarball: string, timings: Record<string, number> }>}
 */
export async function buildElementApps(work) {
  const timings = {};
  let start = performance.now();
  const [packed] = JSON.parse((await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT })).stdout);
  const tarball = join(work, packed.filename);
  const app = join(work, 'app');
  await mkdir(app);
  const dependencies = { 'safetensors-wasm': `file:${tarball}` };
  for (const name of ['react', 'react-dom', 'vue']) dependencies[name] = await installedVersion(name);
  await writeFile(
    join(app, 'package.json'),
    JSON.stringify({ name: 'element-consumer', private: true, type: 'module', dependencies }),
  );
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: app });
  timings.packAndInstall = performance.now() - start;

  start = performance.now();
  const files = await appFiles();
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(app, dirname(path)), { recursive: true });
    await writeFile(join(app, path), text);
  }
  const input = Object.fromEntries(
    Object.keys(files)
      .filter((path) => path.endsWith('index.html'))
      .map((path) => [dirname(path), join(app, path)]),
  );
  const dist = join(app, 'dist');
  await viteBuild({
    root: app,
    plugins: [await vuePlugin()],
    build: { outDir: dist, emptyOutDir: true, rolldownOptions: { input } },
  });
  timings.build = performance.now() - start;
  return { app, dist, tarball, timings };
}

/** Builds the size app `name` (Vite, no configuration but `output`) in the app folder; its JS chunks. */
async function buildSizeApp(app, name, output = {}) {
  const root = join(app, 'size', name);
  await mkdir(root, { recursive: true });
  await writeFile(join(root, 'index.html'), page(name, '<input type="file" />\n  <pre></pre>', './main.js'));
  await writeFile(join(root, 'main.js'), SIZE_APPS[name]);
  const built = await viteBuild({
    root,
    build: {
      outDir: join(root, `dist-${Object.keys(output).length ? 'split' : 'plain'}`),
      emptyOutDir: true,
      rolldownOptions: { output },
    },
  });
  return [built]
    .flat()
    .flatMap((o) => o.output)
    .filter((c) => c.type === 'chunk');
}

const gzipped = (code) => gzipSync(code, { level: 9 }).length;
const packagePath = (id) => id.replace(/^.*[\\/]node_modules[\\/]/, '');

/**
 * The chunks a page of this build downloads: the entry and the model card module's loader
 * (describe() and preload() import it), with what they import statically, transitively.
 */
function downloaded(chunks) {
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const start = chunks.filter(
    (c) => c.isEntry || Object.keys(c.modules).some((id) => /web[\\/]wasm[\\/]safetensors_card\.js$/.test(id)),
  );
  const files = new Set();
  for (const todo = start.map((c) => c.fileName); todo.length;) {
    const file = todo.pop();
    if (!files.has(file)) todo.push(...byFile.get((files.add(file), file)).imports);
  }
  const shipped = [...files].map((file) => byFile.get(file));
  return {
    chunks: Object.fromEntries(shipped.map((c) => [c.fileName, gzipped(c.code)])),
    total: shipped.reduce((sum, c) => sum + gzipped(c.code), 0),
    // Each module by its path under node_modules (the same in both apps), and its full id.
    modules: new Map(shipped.flatMap((c) => Object.keys(c.modules).map((id) => [packagePath(id), id]))),
    cardLoader: start.length === 2,
  };
}

/**
 * What the element adds to a page that calls describe(): the JS each app downloads (gzipped,
 * chunk by chunk) and the difference; Lit's share and web/element/*'s, from a build of the
 * element's app that puts each in a chunk of its own; and the package's other modules the
 * element's page downloads that describe()'s does not.
 * @param {string} app the consumer app folder (with node_modules)
 */
export async function measureElementSize(app) {
  const element = downloaded(await buildSizeApp(app, 'element'));
  const describe = downloaded(await buildSizeApp(app, 'describe'));
  const cardPage = downloaded(await buildSizeApp(app, 'cardPage'));
  const split = await buildSizeApp(app, 'element', {
    codeSplitting: {
      includeDependenciesRecursively: false,
      groups: [
        { name: 'lit', test: LIT },
        { name: 'element', test: ELEMENT },
      ],
    },
  });
  const share = (test) =>
    split
      .filter((c) => Object.keys(c.modules).length > 0 && Object.keys(c.modules).every((id) => test.test(id)))
      .reduce((sum, c) => sum + gzipped(c.code), 0);
  const beyond = [...element.modules]
    .filter(([path, id]) => !describe.modules.has(path) && PACKAGE.test(id) && !ELEMENT.test(id))
    .map(([path]) => path);
  return {
    element,
    describe,
    cardPage,
    overDescribe: element.total - describe.total,
    added: element.total - cardPage.total,
    lit: share(LIT),
    own: share(ELEMENT),
    beyond,
  };
}
