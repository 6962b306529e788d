// The limits a sharded model's shards open under (web/sharded/in_flight.js): items and bytes at
// once, in order, an item larger than the byte limit alone, a recharge before new items, and an
// abort that takes a waiter out of the queue. Over HTTP: sharded_round_trips.test.js.
import { describe, expect, test } from 'vitest';
import { InFlight } from '../../web/sharded/in_flight.js';
import { rejection } from './fixtures.js';

/** The labels of `waits` that have resolved so far (after pending callbacks ran). */
async function admitted(/** @type {Record<string, Promise<void>>} */ waits) {
  const done = new Set();
  for (const [label, wait] of Object.entries(waits)) void wait.then(() => done.add(label));
  await new Promise((resolve) => setTimeout(resolve, 0));
  return [...done].sort();
}

describe('InFlight', () => {
  test('at most `limit` items and `maxBytes` bytes at once, admitted in order as others finish', async () => {
    const limits = new InFlight(2, 100);
    const waits = { a: limits.admit(10), b: limits.admit(10), c: limits.admit(10) };
    expect(await admitted(waits)).toEqual(['a', 'b']); // two items
    limits.release(10);
    expect(await admitted(waits)).toEqual(['a', 'b', 'c']);
    const bytes = new InFlight(10, 100);
    const byBytes = { d: bytes.admit(60), e: bytes.admit(60), f: bytes.admit(10) };
    // f would fit, but waits behind e: a large item is not passed over for ever.
    expect(await admitted(byBytes)).toEqual(['d']);
    bytes.release(60);
    expect(await admitted(byBytes)).toEqual(['d', 'e', 'f']);
  });

  test('an item larger than the byte limit goes when nothing else holds bytes', async () => {
    const limits = new InFlight(10, 100);
    const waits = { a: limits.admit(50), big: limits.admit(500), c: limits.admit(1) };
    expect(await admitted(waits)).toEqual(['a']);
    limits.release(50);
    expect(await admitted(waits)).toEqual(['a', 'big']);
    limits.release(500);
    expect(await admitted(waits)).toEqual(['a', 'big', 'c']);
  });

  test('a recharge gives back what the item held, is served before new items, and fewer bytes pass at once', async () => {
    const limits = new InFlight(10, 100);
    await limits.admit(40);
    await limits.admit(40);
    const waits = { newcomer: limits.admit(30), more: limits.recharge(40, 90) };
    expect(await admitted(waits)).toEqual([]); // 40 + 90 > 100, and the newcomer waits behind it
    limits.release(40);
    expect(await admitted(waits)).toEqual(['more']);
    expect(limits.bytes).toBe(90);
    await limits.recharge(90, 20); // fewer: at once, and the 80 given back let the newcomer in
    expect(await admitted(waits)).toEqual(['more', 'newcomer']);
    expect([limits.count, limits.bytes]).toEqual([2, 20 + 30]);
  });

  test('an abort rejects a waiter with the reason and lets the ones behind it through', async () => {
    const limits = new InFlight(10, 100);
    await limits.admit(80);
    const controller = new AbortController();
    const big = limits.admit(50, controller.signal);
    const small = limits.admit(10);
    expect(await admitted({ small })).toEqual([]);
    controller.abort(new Error('stop'));
    expect((await rejection(big)).message).toBe('stop');
    expect(await admitted({ small })).toEqual(['small']);
    expect((await rejection(limits.admit(1, controller.signal))).message).toBe('stop');
    expect([limits.count, limits.bytes]).toEqual([2, 90]);
  });
});
