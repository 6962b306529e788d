// grouped(): the card's counts grouped by thousands as toLocaleString('en') groups them, without
// loading the locale data (a cold CLI run's cost, issue 39).
import { expect, test } from 'vitest';
import { grouped, parametersText } from '../../web/card/card_text.js';

test('grouped writes what toLocaleString("en") writes, edge values and seeded random ones', () => {
  const values = [0, -0, 1, 999, 1000, 1001, 999_999, 1_000_000, 2 ** 31, 2 ** 53 - 1, 2 ** 53, 1e21];
  values.push(-1, -1234, 1.5, 1234.5678, 0.0004, NaN, Infinity, -Infinity);
  let state = 39;
  for (let i = 0; i < 2000; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    values.push(Math.floor((state / 2 ** 32) * 10 ** (i % 17)));
  }
  for (const n of values) expect(grouped(n), String(n)).toBe(n.toLocaleString('en'));
});

test('parametersText groups the total and each dtype count', () => {
  const card = /** @type {any} */ ({ parameters: { total: 1234567, byDtype: { F16: 1234000, F32: 567 } } });
  expect(parametersText(card)).toBe('1,234,567 (1.23M; F16 1,234,000, F32 567)');
});
