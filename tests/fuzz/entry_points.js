// Every public entry point, as the entry-point fuzz pass (entry_points.fuzz.js) and its Node
// test drive them on one input: the library's (validate with describe/hash/scanData, open +
// describe() + card.modules, getTensors, hash, diff, checkAdapter, convert, edit, scanPickle,
// openCheckpoint + toSafetensors and describe() + card.modules) and the CLI's
// verbs, run in this process with their output silenced, on the input's file.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  checkAdapter,
  diffSafetensors,
  openSafetensors,
  SafetensorsError,
  scanPickle,
  openCheckpoint,
  validateSafetensors,
} from '../../web/index.js';
import { parseCommand } from '../../web/cli/usage.js';
import { terminal } from '../../web/cli/terminal.js';
import { validate } from '../../web/cli/validate.js';
import { inspect } from '../../web/cli/inspect.js';
import { hash } from '../../web/cli/hash.js';
import { edit } from '../../web/cli/edit.js';
import { convert } from '../../web/cli/convert.js';
import { diff } from '../../web/cli/diff.js';
import { checkAdapterCommand } from '../../web/cli/check_adapter.js';

/**
 * One input: its bytes, and the same bytes in a file (`path`); the seed file it was made from
 * (the other side of diff and checkAdapter), also in a file; where a CLI verb writes (`out`).
 * @typedef {{ bytes: Uint8Array, path: string, original: Uint8Array, originalPath: string, out: string }} Input
 * @typedef {(input: Input) => Promise<unknown>} Entry
 */

/** Writes `bytes` and `original` into `scratch` as the Input the entries take. */
export async function inputIn(
  /** @type {string} */ scratch,
  /** @type {Uint8Array} */ bytes,
  /** @type {Uint8Array} */ original,
) {
  const input = {
    bytes,
    path: join(scratch, 'in.safetensors'),
    original,
    originalPath: join(scratch, 'orig.safetensors'),
    out: join(scratch, 'out.safetensors'),
  };
  await Promise.all([writeFile(input.path, bytes), writeFile(input.originalPath, original)]);
  return input;
}

/** Opens the input's bytes and runs `fn` on the file. */
const opened = (/** @type {(st: any) => Promise<unknown>} */ fn) =>
  /** @type {Entry} */ (async ({ bytes }) => fn(await openSafetensors(bytes)));

const CLI = { validate, inspect, hash, edit, convert, diff, 'check-adapter': checkAdapterCommand };

/**
 * A CLI verb on the input's file (ARGS names it IN, the seed's file ORIG, the output OUT), its
 * output silenced. A verb answers with an exit status it documents; it must never throw.
 * @param {keyof typeof CLI} verb
 * @param {string[]} argv
 * @returns {Entry}
 */
function cli(verb, argv) {
  const statuses = verb === 'diff' || verb === 'check-adapter' ? [0, 1, 2] : [0, 1]; // 2: a side unreadable
  return async (input) => {
    const paths = { IN: input.path, ORIG: input.originalPath, OUT: input.out };
    const parsed = parseCommand(
      verb,
      argv.map((a) => paths[/** @type {keyof typeof paths} */ (a)] ?? a),
    );
    if (typeof parsed === 'string') throw new Error(`fuzz harness: ${verb} ${parsed}`);
    const saved = { log: console.log, error: console.error, write: process.stdout.write };
    console.log = console.error = () => {};
    process.stdout.write = () => true;
    try {
      const term = terminal({ stdout: process.stdout, stderr: process.stderr, env: {}, quiet: true });
      const status = await CLI[verb](/** @type {any} */ (parsed), /** @type {any} */ (term));
      if (!statuses.includes(status)) throw new Error(`${verb} exited with ${status}`);
      return status;
    } finally {
      Object.assign(console, { log: saved.log, error: saved.error });
      process.stdout.write = saved.write;
    }
  };
}

/** Plain validate of the input's bytes: what every library entry is timed against. */
export const VALIDATE_BYTES = /** @type {Entry} */ (({ bytes }) => validateSafetensors(bytes));
/** The CLI's plain validate of the input's file: what every CLI verb is timed against. */
export const VALIDATE_PATH = cli('validate', ['IN']);

/** @type {Record<string, Entry>} every entry point; those named "cli ..." read the input's file */
export const ENTRY_POINTS = {
  'validate describe+modules': async ({ bytes }) =>
    (await validateSafetensors(bytes, { describe: true })).card?.modules,
  'validate hash': ({ bytes }) => validateSafetensors(bytes, { hash: true }),
  'validate scanData': ({ bytes }) => validateSafetensors(bytes, { scanData: true }),
  'open describe()+modules': opened(async (st) => (await st.describe({ readAlpha: true })).modules),
  'open getTensors': opened((st) => st.getTensors()),
  'open hash tensors': opened((st) => st.hash({ tensors: true })),
  'open withMetadata (edit)': opened((st) => st.withMetadata({ fuzz: '1' })),
  'open convert F16': opened((st) => st.convert({ to: 'F16' })),
  diffSafetensors: ({ bytes, original }) => diffSafetensors(bytes, original, { data: true }),
  checkAdapter: ({ bytes, original }) => checkAdapter(bytes, original),
  'checkAdapter as base': ({ bytes, original }) => checkAdapter(original, bytes),
  scanPickle: ({ bytes }) => scanPickle(bytes),
  'openCheckpoint toSafetensors': async ({ bytes }) =>
    (await openCheckpoint(bytes)).toSafetensors({ allowUnsafeGlobals: true }),
  'openCheckpoint describe()': async ({ bytes }) => (await (await openCheckpoint(bytes)).describe()).modules,
  'cli validate': cli('validate', ['--json', '--scan-data', '--hash', 'IN']),
  'cli inspect': cli('inspect', ['IN']),
  'cli inspect --json': cli('inspect', ['--json', 'IN']),
  'cli hash': cli('hash', ['--tensors', 'IN']),
  'cli edit': cli('edit', ['IN', '--set', 'fuzz=1', '-o', 'OUT']),
  'cli convert': cli('convert', ['IN', '--to', 'bf16', '-o', 'OUT']),
  'cli diff': cli('diff', ['--data', 'IN', 'ORIG']),
  'cli check-adapter': cli('check-adapter', ['IN', '--base', 'ORIG']),
};

/**
 * How an entry answered: a result, a typed SafetensorsError, an InternalError (ours or
 * Embind's), or anything else (untyped: a TypeError, a RangeError, a plain Error).
 * @param {unknown} error what it threw, or undefined
 * @returns {'result' | 'typed' | 'untyped' | 'internal'}
 */
export function outcomeOf(error) {
  if (error === undefined) return 'result';
  if (error instanceof SafetensorsError) return error.code === 'InternalError' ? 'internal' : 'typed';
  const name = /** @type {any} */ (error)?.name;
  return name === 'InternalError' || name === 'BindingError' ? 'internal' : 'untyped';
}

/**
 * Runs `entry` once: its time in ms and what it threw (undefined when it answered).
 * @param {Entry} entry
 * @param {Input} input
 */
export async function timed(entry, input) {
  const start = performance.now();
  /** @type {unknown} */
  let error;
  try {
    await entry(input);
  } catch (e) {
    error = e ?? new Error(`threw ${e}`);
  }
  return { ms: performance.now() - start, error };
}
