#!/usr/bin/env node
// safetensors-wasm validate | scan | inspect | hash | edit | convert | diff | check-adapter | sbom | verify-signature: one file per
// verb beside this one (validate and scan share validate.js, sbom and verify-signature provenance.js; usage.js says what each takes). Text for people goes to stdout, help included (exit 0);
// a misuse prints what was expected and the verb's usage on stderr (exit 2); --json prints
// one JSON document.
import { setFlagsFromString } from 'node:v8';
import { VERBS, misuse, parseCommand, usageText, verbHelp, version } from './usage.js';
import { terminal } from './terminal.js';
import { colours } from './text.js';
import { initSafetensors, loadCardModule } from '../core/modules.js';

/** Budget units (about a byte of wasm code each) a function runs before V8 optimizes it. */
const WASM_TIERING_BUDGET = 100_000_000;

/** @typedef {(args: import('./usage.js').Parsed, term: import('./terminal.js').Terminal) => Promise<number>} Command */
// Each verb's module is imported when that verb runs: a cold `validate` does not load the code of
// the other verbs (nor the library parts only they use).
/** @type {Record<string, () => Promise<Command>>} */
const commands = {
  validate: async () => (await import('./validate.js')).validate,
  inspect: async () => (await import('./inspect.js')).inspect,
  scan: async () => (await import('./validate.js')).scan,
  hash: async () => (await import('./hash.js')).hash,
  edit: async () => (await import('./edit.js')).edit,
  convert: async () => (await import('./convert.js')).convert,
  diff: async () => (await import('./diff.js')).diff,
  'check-adapter': async () => (await import('./check_adapter.js')).checkAdapterCommand,
  sbom: async () => (await import('./provenance.js')).sbom,
  'verify-signature': async () => (await import('./provenance.js')).verifySignature,
};

// V8 recompiles a wasm function with its optimizing compiler, on background threads, once it has
// run for a budget (V8's --wasm-tiering-budget, 1.8M in Node 20). The large functions of a
// header's analysis and of its card pass that budget on one big header, and recompiling them
// costs more than the run (270 ms of CPU for an inspect of a 1,750-tensor LoKr, which the exit
// then waits for). The CLI owns its process: it raises the budget before any wasm is compiled, so
// that only long runs (scans, hashes and conversions of tensor data) are recompiled.
setFlagsFromString(`--wasm-tiering-budget=${WASM_TIERING_BUDGET}`);

/**
 * The wasm modules a verb surely needs, loaded while its code is imported (a failure is left to
 * the verb, whose own call loads again and reports it).
 * @type {Record<string, (() => Promise<unknown>)[]>}
 */
const PRELOAD = { validate: [initSafetensors], inspect: [initSafetensors, loadCardModule] };

/** @param {string[]} argv the arguments after the script's path */
async function main(argv) {
  const [command, ...rest] = argv;
  if (command === undefined) return misuse(null, 'expected a command');
  if (command === '--help' || command === '-h' || command === 'help') {
    const verb = command === 'help' && Object.hasOwn(VERBS, rest[0]) ? rest[0] : null;
    console.log(verb ? verbHelp(verb) : usageText());
    return 0;
  }
  if (command === '--version' || command === '-V') {
    console.log(version());
    return 0;
  }
  if (!Object.hasOwn(commands, command))
    return misuse(null, `unknown command ${JSON.stringify(command)} (expected ${Object.keys(commands).join(', ')})`);
  const parsed = parseCommand(command, rest);
  if (typeof parsed === 'string') return misuse(command, parsed);
  if (parsed.help) {
    console.log(verbHelp(command));
    return 0;
  }
  for (const load of PRELOAD[command] ?? []) load().catch(() => {});
  const verb = commands[command]();
  const quiet = parsed.has('--quiet') || parsed.has('--json');
  const term = terminal({ stdout: process.stdout, stderr: process.stderr, env: process.env, quiet });
  colours.on = term.colour && !parsed.has('--json');
  return (await verb)(parsed, term);
}

process.exitCode = await main(process.argv.slice(2));
