// tests/bench/compare_tables.js on made-up benchmark output: which numbers are figures, how
// COMPARE_WITH rows pair, and which figures are marked as more than 10% worse.
import { describe, expect, it } from 'vitest';
import { compareFigures, medianFigures, parseFigures, splitCompareWith } from '../bench/compare_tables.js';

const output = (ours, plainMs, rate) => `Node v20, 3 rounds.

### Decoding (16,777,216 values)

| variant | median ms | time vs plain JS | MB/s of F16 input |
|---|---:|---:|---:|
| plain JS | ${plainMs} | 1.00x | 900 |
| \`getTensor\` | 40.0 | **${ours}x** | ${rate} |
| streamTensor | 50 | 0.5x / 0.6x | n/a |

getTensor is 2.00x as fast as the plain JS way.
`;

describe('parseFigures', () => {
  it('keys each number by table (without its parentheses), row and column', () => {
    const figures = parseFigures(output('0.45', '88.0', '1,200'));
    expect(figures.get('Decoding › getTensor › time vs plain JS')).toEqual({
      table: 'Decoding',
      row: 'getTensor',
      column: 'time vs plain JS',
      value: 0.45,
      higherIsBetter: false,
      isRatio: true,
    });
    expect(figures.get('Decoding › getTensor › MB/s of F16 input')).toMatchObject({
      value: 1200,
      higherIsBetter: true,
    });
  });

  it('leaves out text, composite cells and lines outside tables', () => {
    const figures = parseFigures(output('0.45', '88.0', '1,200'));
    expect(figures.has('Decoding › streamTensor › time vs plain JS')).toBe(false);
    expect(figures.has('Decoding › streamTensor › MB/s of F16 input')).toBe(false);
    expect(figures.get('Decoding › streamTensor › median ms')?.value).toBe(50);
    expect(figures.size).toBe(3 + 3 + 1);
  });

  it('names a row by its cells up to the first number', () => {
    const text = `| file | page | plain JS | card / plain |
|---|---|---:|---:|
| sample | preload | 23.9 | **1.56x** |
| sample | \`element\` | 23.9 | **1.89x** |
`;
    const figures = parseFigures(text);
    expect(figures.get(' › sample · element › card / plain')?.value).toBe(1.89);
    expect(figures.get(' › sample · preload › card / plain')?.value).toBe(1.56);
  });
});

describe('splitCompareWith', () => {
  it('pairs a "(COMPARE_WITH)" row with ours of the same name and drops unpaired rows', () => {
    const text = `| command | wall ms | vs plain |
|---|---:|---:|
| plain | 50 | 1.00x |
| \`validate\` | 70 | 1.40x |
| \`validate (COMPARE_WITH)\` | 60 | 1.20x |
| \`inspect (COMPARE_WITH)\` | 90 | 1.80x |
`;
    const { head, ref } = splitCompareWith(parseFigures(text));
    expect([...head.keys()]).toEqual([' › validate › wall ms', ' › validate › vs plain']);
    expect(ref.get(' › validate › vs plain')).toMatchObject({ row: 'validate', value: 1.2 });
    expect(head.get(' › validate › vs plain')?.value).toBe(1.4);
  });
});

describe('medianFigures', () => {
  it('takes the middle of odd counts and the mean of the middle two of even counts', () => {
    const runs = ['0.40', '0.60', '0.45'].map((x) => parseFigures(output(x, '88.0', '1,200')));
    const key = 'Decoding › getTensor › time vs plain JS';
    expect(medianFigures(runs).get(key)?.value).toBe(0.45);
    expect(medianFigures(runs.slice(0, 2)).get(key)?.value).toBeCloseTo(0.5);
  });
});

describe('compareFigures', () => {
  it('marks a time over 10% longer and a speed over 10% lower, in either direction of the ratio', () => {
    const head = parseFigures(output('0.56', '88.0', '1,000'));
    const ref = parseFigures(output('0.50', '88.0', '1,200'));
    const rows = compareFigures(head, ref, true);
    const by = Object.fromEntries(rows.map((r) => [`${r.row} › ${r.column}`, r]));
    expect(by['getTensor › time vs plain JS']).toMatchObject({ ratio: expect.closeTo(1.12), marked: true });
    expect(by['getTensor › MB/s of F16 input']).toMatchObject({ worse: expect.closeTo(0.2), marked: true });
    // Equal figures (the baseline's 1.00x, the same plain ms) are left out.
    expect(Object.keys(by)).toEqual(['getTensor › time vs plain JS', 'getTensor › MB/s of F16 input']);
  });

  it('leaves figures within 10% or better unmarked', () => {
    const head = parseFigures(output('0.54', '80.0', '1,300'));
    const ref = parseFigures(output('0.50', '88.0', '1,200'));
    const rows = compareFigures(head, ref, true);
    expect(rows.map((r) => r.marked)).toEqual([false, false]);
    expect(rows.find((r) => r.column === 'time vs plain JS')?.worse).toBeCloseTo(0.54 / 0.5 - 1);
  });

  it('leaves out the rows of other ways, which are the same code in both builds', () => {
    // plain JS's own time moved 10%: the machine's doing, not the package's.
    const rows = compareFigures(
      parseFigures(output('0.45', '80.0', '1,200')),
      parseFigures(output('0.45', '88.0', '1,200')),
      true,
    );
    expect(rows).toEqual([]);
  });

  it('marks only ratios when the two builds ran in separate processes', () => {
    const head = parseFigures(output('0.56', '88.0', '1,000'));
    const ref = parseFigures(output('0.50', '88.0', '1,200'));
    const marked = compareFigures(head, ref, false).filter((r) => r.marked);
    expect(marked.map((r) => r.column)).toEqual(['time vs plain JS']);
  });

  it('reads a time against one of ours as better when it grows', () => {
    const table = (plain) => `| variant | median ms | time vs st.convert |
|---|---:|---:|
| st.convert | 40 | 1.00x |
| plain JS | 400 | ${plain}x |
`;
    const [row] = compareFigures(parseFigures(table('8.00')), parseFigures(table('10.00')), false);
    expect(row).toMatchObject({ row: 'plain JS', higherIsBetter: true, marked: true });
    expect(compareFigures(parseFigures(table('12.00')), parseFigures(table('10.00')), false)[0].marked).toBe(false);
  });

  it("leaves out counts that describe a run, and ratios to the script's own build when both ran in one process", () => {
    const table = (ms, ratio, inFlight) => `| layout | variant | median ms | vs ours | most in flight |
|---|---|---:|---:|---:|
| 405B | open | ${ms} | ${ratio}x | ${inFlight} |
`;
    const rows = compareFigures(
      parseFigures(table('150', '0.55', '191')),
      parseFigures(table('140', '5.35', '8')),
      true,
    );
    expect(rows.map((r) => r.column)).toEqual(['median ms']);
    expect(rows[0].marked).toBe(false);
    const separate = compareFigures(
      parseFigures(table('150', '0.55', '191')),
      parseFigures(table('140', '5.35', '8')),
      false,
    );
    expect(separate.map((r) => r.column)).toEqual(['median ms', 'vs ours']);
  });
});
