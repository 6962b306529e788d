// Every code the core knows (its tables) and every code the package throws is documented: in
// the unions of web/core/types.d.ts (re-exported by index.d.ts) and in the tables of docs/findings.md
// (and docs/api.md for the arrays getTensor gives). The
// types that mirror the core (NativeArrays, ModelCard) hold what it gives. Drift fails here.
import { expect, test } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { initSafetensors, openSafetensors, serializeSafetensors } from '../../web/index.js';
import { planTensorRead } from '../../web/tensors/plan.js';

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const dts = read('web/core/types.d.ts'); // the code unions (re-exported by web/index.d.ts)
const findingsDoc = read('docs/findings.md'); // the findings and errors tables
const apiDoc = read('docs/api.md'); // the getTensor table

// The string literals of `export type NAME = ...;` in web/core/types.d.ts.
function union(name) {
  const match = dts.match(new RegExp(`export type ${name} =([^;]*);`));
  expect(match, `web/core/types.d.ts has no type ${name}`).not.toBeNull();
  return new Set([...match[1].matchAll(/'([^']+)'/g)].map((m) => m[1]));
}

// The first-column codes (`Code`) of the docs/findings.md table under the heading `title`.
function docTable(title) {
  const at = findingsDoc.indexOf(`\n${title}\n`);
  expect(at, `docs/findings.md has no heading ${title}`).toBeGreaterThanOrEqual(0);
  const rows =
    findingsDoc
      .slice(at)
      .split('\n\n')
      .find((block) => block.startsWith('|')) ?? '';
  return new Set(
    rows.split('\n').flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/`(\w+)`/g)].map((m) => m[1])),
  );
}

test('every finding code of the core is in FindingCode and in the findings table of docs/findings.md, with its severity', async () => {
  const { tables } = await initSafetensors();
  const codes = union('FindingCode');
  const table = docTable('## Findings');
  const findingsPart = findingsDoc.slice(findingsDoc.indexOf('\n## Findings\n')); // the Errors table names some codes too
  expect(tables.findingCodes.length).toBeGreaterThan(15);
  for (const { name, severity } of tables.findingCodes) {
    expect(codes, name).toContain(name);
    expect(table, name).toContain(name);
    const row = findingsPart.split('\n').find((line) => line.startsWith('|') && line.includes(`\`${name}\``));
    expect(row, name).toContain(`| ${severity} |`);
  }
  expect([...codes].sort()).toEqual(tables.findingCodes.map((c) => c.name).sort()); // and nothing stale
});

test('every format a NotSafetensors finding names is in ForeignFormat and in the findings table of docs/findings.md', async () => {
  const { tables } = await initSafetensors();
  expect([...union('ForeignFormat')].sort()).toEqual(tables.foreignFormats.map((f) => f.name).sort());
  const row = findingsDoc.split('\n').find((line) => line.startsWith('| `NotSafetensors` |')) ?? '';
  for (const { name, label } of tables.foreignFormats) {
    expect(row, name).toContain(`\`${name}\``);
    expect(label, name).toMatch(/^an? /); // "this is <label>, not a safetensors file"
  }
});

test('every reference error kind and dtype of the core is in index.d.ts', async () => {
  const { tables } = await initSafetensors();
  expect([...union('ReferenceErrorKind')].sort()).toEqual(tables.referenceErrors.filter((k) => k !== null).sort());
  expect([...union('Dtype')].sort()).toEqual(tables.dtypes.map((d) => d.name).sort());
});

test('every SafetensorsError code the package throws is in index.d.ts and in the errors table of docs/findings.md', () => {
  const thrown = new Set();
  for (const name of readdirSync(new URL('../../web/', import.meta.url), { recursive: true }).filter(
    (f) => f.endsWith('.js') && !f.startsWith('wasm'),
  )) {
    for (const m of read(`web/${name}`).matchAll(/new SafetensorsError\(\s*'(\w+)'/g)) thrown.add(m[1]);
  }
  expect(thrown.size).toBeGreaterThan(5);
  const codes = union('ErrorCode');
  const table = docTable('## Errors');
  // A reference error kind (the writer's HeaderTooLarge) is documented in the table's first row.
  const kinds = union('ReferenceErrorKind');
  const kindsRow =
    findingsDoc
      .slice(findingsDoc.indexOf('\n## Errors\n'))
      .split('\n')
      .find((line) => line.startsWith('| *(a reference error kind)*')) ?? '';
  for (const code of thrown) {
    if (kinds.has(code)) {
      expect(kindsRow, code).toContain(`\`${code}\``);
      continue;
    }
    expect(codes, code).toContain(code);
    expect(table, code).toContain(code);
  }
});

test('the array each dtype gives (as: native) is the one NativeArrays and the table of docs/api.md name', async () => {
  const { tables } = await initSafetensors();
  const tensorTypes = read('web/tensors/types.d.ts');
  const body = tensorTypes.slice(tensorTypes.indexOf('export interface NativeArrays {'));
  const declared = new Map(
    [...body.slice(0, body.indexOf('\n}')).matchAll(/(\w+): (\w+Array);/g)].map((m) => [m[1], m[2]]),
  );
  const at = apiDoc.indexOf('\n## Decoding: `st.getTensor(');
  const rows = apiDoc
    .slice(at)
    .split('\n\n')
    .find((block) => block.startsWith('| dtype'))
    .split('\n')
    .slice(2);
  const cells = rows.map((row) =>
    row
      .split('|')
      .map((c) => c.trim())
      .slice(1, -1),
  );
  for (const dtype of tables.dtypes) {
    const tensor = { name: 't', shape: [0], dataOffsets: /** @type {[number, number]} */ ([0, 0]) };
    const plan = planTensorRead(tensor, dtype, 8, { as: 'native' });
    expect(declared.get(dtype.name), dtype.name).toBe(plan.ArrayType.name);
    const row = cells.filter(([names]) =>
      names
        .split(',')
        .map((n) => n.trim())
        .includes(dtype.name),
    );
    expect(row, `docs/api.md getTensor table row of ${dtype.name}`).toHaveLength(1);
    const [, native] = row[0];
    if (native === 'their own typed array') expect(plan.kind, dtype.name).toBe('copy');
    else expect(native, dtype.name).toContain(plan.ArrayType.name);
  }
  expect([...declared.keys()].sort()).toEqual(tables.dtypes.map((d) => d.name).sort()); // and nothing stale
});

test('the model card has exactly the fields ModelCard declares', async () => {
  const cardTypes = read('web/card/types.d.ts');
  const body = cardTypes.slice(cardTypes.indexOf('export interface ModelCard {'));
  const block = body.slice(0, body.indexOf('\n}'));
  // Fields at the interface's own indentation (two spaces), not those of nested object types.
  const declared = [...block.matchAll(/^ {2}(\w+)\??:/gm)].map((m) => m[1]);
  const file = await serializeSafetensors(
    { 'lora_unet_a.lora_down.weight': { dtype: 'F32', shape: [1], data: new Float32Array(1) } },
    { metadata: { ss_output_name: 'x' } },
  );
  const card = await (await openSafetensors(file)).describe();
  expect(Object.keys(card).sort()).toEqual(declared.sort());
});
