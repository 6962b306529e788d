// Every entry point answers every input with a result or a typed SafetensorsError (issue 37):
// headers whose data_offsets are no byte range once made the card module report a version
// mismatch (InternalError) from validate({ describe }), checkAdapter, inspect and the demo.
import { describe, expect, test } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateSafetensors, checkAdapter, SafetensorsError } from '../../web/index.js';
import { buildCard } from '../../web/card/model_card.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';
import { invalidOffsetFiles, mutant, MUTATION_NAMES } from '../fuzz/entry_mutants.js';
import { ENTRY_POINTS, inputIn, outcomeOf, timed } from '../fuzz/entry_points.js';
import { rawFile, rejection } from './fixtures.js';
import { run } from './cli_run.js';

const files = invalidOffsetFiles();
const good = writeSafetensors([
  { name: 'model.layers.0.mlp.up_proj.weight', dtype: 'F32', shape: [2, 2], data: new Uint8Array(16) },
  { name: 'model.layers.0.mlp.down_proj.weight', dtype: 'F16', shape: [3], data: new Uint8Array(6) },
]);

describe('a header whose data_offsets are invalid', () => {
  test.each(Object.keys(files))(
    '%s: validate({ describe }) gives the verdict and a card, saying why it is partial',
    async (name) => {
      const report = await validateSafetensors(files[name], { describe: true });
      expect(report.loadable).toBe(false);
      expect(report.referenceError).toBe('InvalidOffset');
      expect(report.card?.kind).toBe('unknown');
      expect(report.card?.modules.tensors).toBe(1);
      expect(report.cardNote).toMatch(/data_offsets of its one tensor are invalid \(InvalidOffset\)/);
    },
  );

  test("an InvalidOffset file's bytes come from dtypes and shapes, not from its offsets", async () => {
    // F32 [2] at [0, 8] and F16 [3] at [16, 8]: end before begin; 8 + 6 bytes by their shapes.
    const file = rawFile(
      '{"a.w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b.w":{"dtype":"F16","shape":[3],"data_offsets":[16,8]}}',
      8,
    );
    const report = await validateSafetensors(file, { describe: true });
    expect(report.referenceError).toBe('InvalidOffset');
    expect(report.card?.memory.bytes).toBe(14);
    expect(report.card?.modules.bytes).toBe(14);
    expect(report.card?.parameters.total).toBe(5);
    expect(report.cardNote).toContain('all 2 tensors');
  });

  test('a loadable file has no note; a header with no tensors has no card, and says so', async () => {
    const report = await validateSafetensors(good, { describe: true });
    expect(report.card?.parameters.total).toBe(7);
    expect(report).not.toHaveProperty('cardNote');
    const empty = await validateSafetensors(rawFile('{}'), { describe: true });
    expect(empty.card).toBeNull();
    expect(empty.cardNote).toBe('no model card: the header lists no tensors');
    const unread = await validateSafetensors(new Uint8Array(5), { describe: true });
    expect(unread.cardNote).toBe(
      'no model card: the file is rejected (HeaderTooSmall) and no tensor of its header was read',
    );
  });

  test('checkAdapter answers with a result on either side', async () => {
    for (const bytes of Object.values(files)) {
      expect((await checkAdapter(bytes, good)).compatible).toBe(false);
      expect(typeof (await checkAdapter(good, bytes)).compatible).toBe('boolean');
    }
  });

  test('a table that is no header table is still the version mismatch it always was', async () => {
    const error = await rejection(buildCard(new Uint8Array([1, 0, 0, 0, 0, 0, 0, 0, 9]), 0));
    expect(error).toBeInstanceOf(SafetensorsError);
    expect(error.code).toBe('InternalError');
    expect(error.message).toContain('different versions of the package');
  });

  test('inspect prints the verdict and the card with its note, no stack trace', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stw-offsets-'));
    try {
      const path = join(dir, 'begin_gt_end.safetensors');
      await writeFile(path, files.begin_gt_end);
      const text = await run(['inspect', path]);
      expect(text.code).toBe(1);
      expect(text.stderr).toBe('');
      expect(text.stdout).toContain(`${path}: not loadable: InvalidOffset`);
      expect(text.stdout).toContain('(card built from the tensors');
      const json = await run(['inspect', '--json', path]);
      expect(json.code).toBe(1);
      const parsed = JSON.parse(json.stdout);
      expect(parsed.report.referenceError).toBe('InvalidOffset');
      expect(parsed.cardNote).toContain('InvalidOffset');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

// A small fixed sweep of the fuzz pass (make fuzz runs thousands): every entry point on the two
// files and on seeded mutants of them and of a loadable file.
test('every entry point answers these inputs with a result or a typed error', async () => {
  const scratch = await mkdtemp(join(tmpdir(), 'stw-entries-'));
  try {
    const inputs = [...Object.values(files), good];
    for (let i = 0; i < 2 * MUTATION_NAMES.length; i++) inputs.push(mutant(good, 37, i).bytes ?? good);
    const bad = [];
    for (const bytes of inputs) {
      const input = await inputIn(scratch, bytes, good);
      for (const [entry, fn] of Object.entries(ENTRY_POINTS)) {
        const { error } = await timed(fn, input);
        const kind = outcomeOf(error);
        if (kind === 'untyped' || kind === 'internal') bad.push(`${entry}: ${error}`);
      }
    }
    expect(bad).toEqual([]);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}, 120_000);
