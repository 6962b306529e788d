// streamTensor (issue 12): a tensor as converted pieces on one reused array, from the same
// decoding path as getTensor; a tensor larger than any array streams in bounded memory.
import { describe, expect, test } from 'vitest';
import { initSafetensors, openSafetensors, serializeSafetensors } from '../../web/index.js';
import { rejection } from './fixtures.js';

/** Every piece's values copied out, in order, and the facts of each step. */
async function collect(iterable) {
  const pieces = [];
  const buffers = new Set();
  let next = 0;
  for await (const { offset, values } of iterable) {
    expect(offset).toBe(next);
    next += values.length;
    buffers.add(values.buffer);
    pieces.push(values.slice());
  }
  return { pieces, buffers, length: next };
}

const concat = (pieces, ArrayType) => {
  const out = new ArrayType(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

describe('streamTensor', () => {
  test("every kind of dtype and `as`, at chunk sizes that split elements: the pieces make getTensor's array, on one reused buffer", async () => {
    const n = 3001;
    const tensors = {
      half: { dtype: 'F16', shape: [n], data: Uint16Array.from({ length: n }, (_, i) => (i * 7919) & 0xffff) },
      brain: { dtype: 'BF16', shape: [n], data: Uint16Array.from({ length: n }, (_, i) => (i * 104729) & 0xffff) },
      single: { dtype: 'F32', shape: [n], data: Float32Array.from({ length: n }, (_, i) => i / 7) },
      long: { dtype: 'I64', shape: [n], data: BigInt64Array.from({ length: n }, (_, i) => BigInt(i) * -3n) },
      mask: { dtype: 'BOOL', shape: [n], data: Uint8Array.from({ length: n }, (_, i) => i % 3) },
      four: { dtype: 'F4', shape: [2 * n], data: Uint8Array.from({ length: n }, (_, i) => (i * 31) & 0xff) },
      e4m3: { dtype: 'F8_E4M3', shape: [n], data: Uint8Array.from({ length: n }, (_, i) => i & 0xff) },
    };
    const st = await openSafetensors(new Blob([await (await serializeSafetensors(tensors)).arrayBuffer()]));
    for (const name of Object.keys(tensors)) {
      for (const as of ['native', 'float32', 'raw']) {
        const whole = await st.getTensor(name, { as });
        for (const chunkBytes of [7, 1000, 65537, undefined]) {
          const { pieces, buffers, length } = await collect(st.streamTensor(name, { as, chunkBytes }));
          expect(length, `${name} ${as} ${chunkBytes}`).toBe(whole.length);
          expect(buffers.size, `${name} ${as} ${chunkBytes}: one reused buffer`).toBe(1);
          expect(concat(pieces, whole.constructor), `${name} ${as} ${chunkBytes}`).toEqual(whole);
        }
      }
    }
  });

  test('rows, progress and abort as in getTensor; bad options and names are refused', async () => {
    const data = Float32Array.from({ length: 100 * 8 }, (_, i) => i);
    const st = await openSafetensors(await serializeSafetensors({ w: { dtype: 'F32', shape: [100, 8], data } }));
    const progress = [];
    const { pieces } = await collect(
      st.streamTensor('w', { rows: [10, 20], chunkBytes: 64, onProgress: (d, t) => progress.push([d, t]) }),
    );
    expect(concat(pieces, Float32Array)).toEqual(data.subarray(80, 160));
    expect(progress.at(-1)).toEqual([320, 320]);
    expect((await rejection(collect(st.streamTensor('nope')))).code).toBe('TensorNotFound');
    await expect(collect(st.streamTensor('w', { chunkBytes: 0 }))).rejects.toThrow(TypeError);
    const controller = new AbortController();
    let pieces3 = 0;
    const stopped = await rejection(
      (async () => {
        for await (const piece of st.streamTensor('w', { chunkBytes: 32, signal: controller.signal })) {
          expect(piece.values.length).toBe(8);
          if (++pieces3 === 3) controller.abort(new Error('stop'));
        }
      })(),
    );
    expect([stopped.message, pieces3]).toEqual(['stop', 3]);
    const aborted = await rejection(
      collect(st.streamTensor('w', { chunkBytes: 32, signal: AbortSignal.abort(new Error('gone')) })),
    );
    expect(aborted.message).toBe('gone');
  });

  test('a 4.25 GiB tensor (larger than any typed array here) streams in pieces; getTensor says TensorTooLarge', async () => {
    const count = 4.25 * 2 ** 30; // U8 elements
    const header = new TextEncoder().encode(`{"big":{"dtype":"U8","shape":[${count}],"data_offsets":[0,${count}]}}`);
    const prefix = new Uint8Array(8);
    new DataView(prefix.buffer).setBigUint64(0, BigInt(header.byteLength), true);
    const start = 8 + header.byteLength;
    const zeros = new Uint8Array(64 << 20);
    const source = {
      size: start + count,
      async read(offset, length) {
        if (offset === 0) {
          const out = new Uint8Array(length);
          out.set(prefix.subarray(0, Math.min(8, length)));
          if (length > 8) out.set(header.subarray(0, length - 8), 8);
          return out;
        }
        if (offset === 8) return header.subarray(0, length);
        return zeros.subarray(0, length);
      },
    };
    const st = await openSafetensors(source);
    expect((await rejection(st.getTensor('big'))).code).toBe('TensorTooLarge');
    let elements = 0;
    let maxPiece = 0;
    let peakArrayBuffers = 0;
    for await (const { offset, values } of st.streamTensor('big', { chunkBytes: 64 << 20 })) {
      expect(offset).toBe(elements);
      elements += values.length;
      maxPiece = Math.max(maxPiece, values.length);
      peakArrayBuffers = Math.max(peakArrayBuffers, process.memoryUsage().arrayBuffers);
    }
    expect(elements).toBe(count);
    expect(maxPiece).toBeLessThanOrEqual(64 << 20);
    // Bounded: a few chunks' worth, never the tensor (the zeros, the reused array, a read in flight).
    expect(peakArrayBuffers).toBeLessThan(1 << 30);
  }, 120_000);

  /** The same bits (fast on large arrays, where toEqual walks element by element). */
  const bits = (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  const f16File = async (n) =>
    new Blob([
      await (
        await serializeSafetensors({
          w: { dtype: 'F16', shape: [n], data: Uint16Array.from({ length: n }, (_, i) => (i * 40503) & 0x7bff) },
        })
      ).arrayBuffer(),
    ]);

  const STREAM_ELEMENTS = 4 << 20; // 8 MiB of F16

  test('converted pieces are copies in one reused array of their own: the shared heap growing between steps leaves them whole', async () => {
    const core = await initSafetensors();
    const st = await openSafetensors(await f16File(STREAM_ELEMENTS));
    const expected = await st.getTensor('w');
    let seen = 0;
    const buffers = new Set();
    for await (const { offset, values } of st.streamTensor('w', { chunkBytes: 2 << 20 })) {
      // Not the shared heap: a reused array of 4 MiB of float32 for 2 MiB of F16.
      expect(values.buffer).not.toBe(core.heap.buffer);
      buffers.add(values.buffer);
      const before = core.heap.buffer.byteLength;
      core.free(core.malloc(before, 'a growth of the shared heap')); // as another call could, between two steps
      expect(core.heap.buffer.byteLength).toBeGreaterThan(before);
      expect(values.length).toBeGreaterThan(0); // not emptied by that growth
      expect(bits(values).equals(bits(expected.subarray(offset, offset + values.length)))).toBe(true);
      seen += values.length;
    }
    expect(seen).toBe(expected.length);
    expect([...buffers].map((b) => b.byteLength)).toEqual([4 << 20]);
  });

  test('seven streams at once: each gives the tensor through a reused array of its own', async () => {
    const st = await openSafetensors(await f16File(STREAM_ELEMENTS));
    const expected = await st.getTensor('w');
    const streams = Array.from({ length: 7 }, () =>
      st.streamTensor('w', { chunkBytes: 1 << 20 })[Symbol.asyncIterator](),
    );
    const got = streams.map(() => new Float32Array(expected.length));
    const buffers = streams.map(() => new Set());
    for (let open = streams.length; open > 0;) {
      open = 0;
      for (let s = 0; s < streams.length; s++) {
        // one step of each in turn: all seven run at once
        const step = await streams[s].next();
        if (step.done) continue;
        open++;
        got[s].set(step.value.values, step.value.offset);
        buffers[s].add(step.value.values.buffer);
      }
    }
    for (const array of got) expect(bits(array).equals(bits(expected))).toBe(true);
    // Each stream's pieces share one buffer (2 MiB of float32 for 1 MiB of F16), none another's.
    for (const set of buffers) expect([...set].map((b) => b.byteLength)).toEqual([2 << 20]);
    expect(new Set(buffers.flatMap((set) => [...set])).size).toBe(7);
  });
});
