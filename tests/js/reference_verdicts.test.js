// The reference crate's own verdicts on hard files (../shared/fixtures/reference: 45 boundary
// cases and 2,394 seeded mutants, each with the verdict huggingface/safetensors gave on exactly
// those bytes), through validateSafetensors in the wasm build: `loadable` exactly when the
// crate says OK, `referenceError` equal to its error otherwise. `AMBIGUOUS:A,B` accepts either
// (tied data_offsets are checked in HashMap order, which varies per process).
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateSafetensors } from '../../web/index.js';
import { haveFixtures } from './fixtures.js';

const REFERENCE_DIR = fileURLToPath(new URL('../../../shared/fixtures/reference/', import.meta.url));
const HAVE_REFERENCE = haveFixtures(REFERENCE_DIR);

/** @returns {{ file: string, accepted: string[] }[]} */
function readVerdicts() {
  const [, ...rows] = readFileSync(join(REFERENCE_DIR, 'verdicts.tsv'), 'utf8').trimEnd().split('\n');
  return rows.map((row) => {
    const [file, verdict] = row.split('\t');
    const accepted = verdict.startsWith('AMBIGUOUS:') ? verdict.slice('AMBIGUOUS:'.length).split(',') : [verdict];
    return { file, accepted };
  });
}

describe.runIf(HAVE_REFERENCE)('the reference crate’s verdicts', () => {
  test('every hard file gets the crate’s verdict, through the wasm build', async () => {
    const rows = readVerdicts();
    expect(rows.length).toBeGreaterThanOrEqual(2439);
    const disagreements = [];
    for (const { file, accepted } of rows) {
      const report = await validateSafetensors(readFileSync(join(REFERENCE_DIR, file)));
      const ours = report.loadable ? 'OK' : report.referenceError;
      const consistent = report.loadable === (report.referenceError === null);
      if (!consistent || !accepted.includes(ours)) disagreements.push(`${file}: ${accepted} / ${ours}`);
    }
    expect(disagreements).toEqual([]);
  }, 120_000);
});
