// What the CLI benchmarks share: a big safetensors file of random bytes under a temporary
// folder (never in the repository), and one command timed under /usr/bin/time: wall time and
// CPU time (user + sys), which a shared, busy machine disturbs less.
import { execFile } from 'node:child_process';
import { randomFillSync } from 'node:crypto';
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { rawFile } from '../../tools/write_safetensors.js';

const run = promisify(execFile);

/**
 * A safetensors file of `bytes` data bytes (one U8 tensor of random bytes), written in 16 MiB
 * pieces; `onPiece` sees each piece of the whole file (its header first), to hash it on the way.
 * @param {string} path
 * @param {number} bytes
 * @param {(piece: Uint8Array) => void} [onPiece]
 */
export async function writeBigFile(path, bytes, onPiece = () => {}) {
  let header = `{"__metadata__":{"format":"pt"},"w":{"dtype":"U8","shape":[${bytes}],"data_offsets":[0,${bytes}]}}`;
  header += ' '.repeat((8 - (header.length % 8)) % 8);
  const handle = await open(path, 'w');
  try {
    const head = rawFile(header);
    onPiece(head);
    await handle.write(head);
    const piece = new Uint8Array(16 << 20);
    for (let done = 0; done < bytes; done += piece.byteLength) {
      randomFillSync(piece);
      const part = piece.subarray(0, Math.min(piece.byteLength, bytes - done));
      onPiece(part);
      await handle.write(part);
    }
  } finally {
    await handle.close();
  }
}

/**
 * Runs a command under /usr/bin/time: its wall and CPU seconds, its exit code and its stdout.
 * A non-zero exit is returned, not thrown (verify-signature exits 1 when not verified).
 * @param {string[]} argv
 * @param {string} work a folder for time's report
 */
export async function timed(argv, work) {
  const report = join(work, 'time.txt');
  let stdout;
  let code = 0;
  try {
    ({ stdout } = await run('/usr/bin/time', ['-f', '%e %U %S', '-o', report, ...argv], { maxBuffer: 1 << 20 }));
  } catch (error) {
    ({ stdout = '', code = 1 } = /** @type {any} */ (error));
  }
  const [wall, user, sys] = (await readFile(report, 'utf8')).trim().split('\n').pop().split(/\s+/).map(Number);
  return { wall, cpu: user + sys, code, stdout };
}
