// What the CLI takes: each verb's synopsis, options and help; the split of its arguments into
// options and files; what --help, --version and a misuse print.
import { readFileSync } from 'node:fs';

const FILE_FORMS = `A FILE may be an http:// or https:// URL: it is read with Range requests (the header in
one request when it fits in 256 KiB, tensors as needed), never downloaded whole. A FILE
may be - for standard input (read whole, once).`;

const MODEL_FORMS = `For validate and inspect, a FILE may also be a sharded model: its *.safetensors.index.json
(path or URL) or a folder (its index, or without one its .safetensors files when they are
named as shards, NAME-00001-of-00003.safetensors; any other folder's files are checked one
by one). A diffusers pipeline (a folder holding model_index.json, or its path or URL) is
checked component by component; --variant fp16 opens each component's fp16 checkpoint, or
its plain one when it has none (as diffusers does).`;

const QUIET = `A progress bar shows on stderr while big files are read, when stderr is a terminal;
--quiet (-q) or --json hides it. Colours only on a terminal, never with NO_COLOR set.`;

/**
 * A verb's usage: its synopsis, what it does, and the options it takes (flags stand alone;
 * values take the next argument, the repeatable ones any number of times).
 * @typedef {{ synopsis: string, about: string, flags: string[], values?: string[], repeated?: string[],
 *   files: 'one' | 'many', notes: string[] }} Verb
 */

/** @type {Record<string, Verb>} */
export const VERBS = {
  validate: {
    synopsis: 'validate [--json] [--quiet] [--scan-data] [--hash] [--variant NAME] FILE...',
    about: `says whether the reference safetensors loader accepts each file
          (exit 0 when all are loadable, 1 otherwise); --json prints one JSON array;
          --scan-data also reads every tensor, counting NaN, infinities and all-zero tensors;
          --hash also hashes each file in the same read; a PyTorch checkpoint or pickle
          gets the scan's verdict instead (nothing in it is run; exit 0 only when safe)`,
    flags: ['--json', '--quiet', '--scan-data', '--hash'],
    values: ['--variant'],
    files: 'many',
    notes: [FILE_FORMS, MODEL_FORMS, QUIET],
  },
  inspect: {
    synopsis: 'inspect [--json] [--civitai] [--variant NAME] FILE',
    about: `prints the model card (what the file is), then the verdict, findings, metadata and
          the tensor table; --json prints { file, report, card, metadata, tensors };
          --civitai hashes the file and asks Civitai which model version it is (the only
          request to a server it was not given; SAFETENSORS_WASM_CIVITAI_URL changes the server);
          a decoder's config.json beside the weights (in the file's folder, the model's, each
          component's) adds its KV cache size to the card; a PyTorch checkpoint or pickle
          shows its card, scan verdict, globals, plain values and tensors (nothing is run)`,
    flags: ['--json', '--civitai'],
    values: ['--variant'],
    files: 'one',
    notes: [FILE_FORMS, MODEL_FORMS],
  },
  scan: {
    synopsis: 'scan [--json] FILE...',
    about: `scans each PyTorch checkpoint (.pt, .pth, .ckpt, pytorch_model.bin), pickle or NumPy
          .npy/.npz without running it: every global its pickles name, marked safe (what
          torch.load(weights_only=True) accepts), unsafe (what public scanners list) or unknown,
          and a verdict (exit 0 when every file is safe, 1 otherwise, 2 when a file cannot be
          read); only the pickles and the zip directory are read; --json prints one JSON array of
          { file, format, verdict, globals: [{ module, name, safety, count }], findings }`,
    flags: ['--json'],
    files: 'many',
    notes: [FILE_FORMS],
  },
  hash: {
    synopsis: 'hash [--json] [--quiet] [--tensors] FILE...',
    about: `prints each file's SHA-256 as sha256sum does, then AutoV2, AutoV3, AutoV1, the data
          section's SHA-256 and the check of every hash the metadata claims (exit 0 when all
          files were read and no claim failed, 1 otherwise); --tensors adds each tensor's SHA-256`,
    flags: ['--json', '--quiet', '--tensors'],
    files: 'many',
    notes: [FILE_FORMS, QUIET],
  },
  edit: {
    synopsis: 'edit [--quiet] FILE [--set KEY=VALUE]... [--delete KEY]... [--clear] -o OUT',
    about: `writes FILE with its metadata changed (--clear starts from none) to OUT, the tensor
          data copied byte for byte (its hashes stay); OUT may be FILE: it is replaced only
          once the new file is whole`,
    flags: ['--quiet', '--clear'],
    values: ['-o'],
    repeated: ['--set', '--delete'],
    files: 'one',
    notes: [FILE_FORMS, QUIET],
  },
  convert: {
    synopsis:
      'convert [--quiet] FILE --to f16|bf16 -o OUT, or convert [--verify] [--allow-unsafe-globals] CHECKPOINT -o OUT',
    about: `writes FILE with its F32, F64 and other 16-bit float tensors as F16 or BF16
          (rounded to nearest even; NaN stays NaN) to OUT; other tensors are copied; the
          metadata's hashes of the data (sshs_model_hash, modelspec.hash_sha256, ...) are dropped.
          Without --to, writes a PyTorch checkpoint's tensors (.pt, .pth, .ckpt, pytorch_model.bin;
          a state_dict entry unwrapped) as .safetensors with metadata {"format": "pt"}, running
          nothing in it; a checkpoint naming a global that is not safe is refused (exit 1) unless
          --allow-unsafe-globals, which converts its tensors alone and lists the globals in the
          metadata; --verify reads both files again and compares every tensor`,
    flags: ['--quiet', '--verify', '--allow-unsafe-globals'],
    values: ['--to', '-o'],
    files: 'one',
    notes: [FILE_FORMS, QUIET],
  },
  diff: {
    synopsis: 'diff [--json] [--quiet] [--data] A B',
    about: `prints what changed from A to B (files, sharded models or URLs; tensors matched by
          name): tensors added, removed, changed in dtype or shape, and metadata keys (exit 0
          when identical, 1 when not, 2 when a side cannot be read); --data also compares the
          bytes of every tensor on both sides (SHA-256 each, and for floats the largest
          difference between elements), reading both in bounded memory`,
    flags: ['--json', '--quiet', '--data'],
    files: 'many',
    notes: [FILE_FORMS, QUIET],
  },
  'check-adapter': {
    synopsis: 'check-adapter [--json] [--quiet] ADAPTER --base BASE',
    about: `says whether ADAPTER (a LoRA, LoCon, LoHa, LoKr or DoRA; kohya, PEFT, diffusers or
          MLX names) fits BASE (a file, sharded model or URL), from the two headers alone: each
          adapted module is looked up in BASE across naming conventions and its shapes checked
          (exit 0 compatible, 1 not, 2 when a header cannot be read or the usage is wrong)`,
    flags: ['--json', '--quiet'],
    values: ['--base'],
    files: 'one',
    notes: [
      `ADAPTER and BASE may be http:// or https:// URLs: only their headers are asked for. BASE may
also be a sharded model: its *.safetensors.index.json (path or URL) or a folder. Either (not
both) may be -: standard input, read whole.`,
    ],
  },
  sbom: {
    synopsis: 'sbom [--quiet] MODEL [-o OUT]',
    about: `prints (or writes to OUT) the CycloneDX 1.6 bill of materials of MODEL (a folder or
          a file): the model with its model card, every file with its SHA-256`,
    flags: ['--quiet'],
    values: ['-o'],
    files: 'one',
    notes: [QUIET],
  },
  'verify-signature': {
    synopsis:
      'verify-signature [--json] MODEL --signature SIG (--public-key PEM | --certificate-chain PEM... | --identity ID --issuer URL) [--ignore-paths PATH]... [--trusted-root JSON] [--allow-symlinks]',
    about: `checks an OpenSSF model signature (model_signing v1.x, a Sigstore bundle) against
          MODEL (a folder or a file): the signer by a public key, a certificate chain or Sigstore
          keyless (identity and issuer), then every file's SHA-256 (exit 0 verified, 1 not,
          2 usage); --certificate-chain and --ignore-paths may be repeated`,
    flags: ['--json', '--quiet', '--allow-symlinks'],
    values: ['--signature', '--public-key', '--identity', '--issuer', '--trusted-root'],
    repeated: ['--certificate-chain', '--ignore-paths'],
    files: 'one',
    notes: [QUIET],
  },
};

const ALIASES = /** @type {Record<string, string>} */ ({ '-q': '--quiet', '-h': '--help' });

const describe = (/** @type {string} */ name) => `${name.padEnd(9)} ${VERBS[name].about}`;

/** Every verb's synopsis. */
function synopses() {
  return `usage: ${Object.keys(VERBS)
    .map((n, i) => `${i ? '       ' : ''}safetensors-wasm ${VERBS[n].synopsis}`)
    .join('\n')}
       safetensors-wasm --help | --version
       safetensors-wasm COMMAND --help`;
}

/** The whole usage: every verb's synopsis and what it does, then how FILE may be given. */
export function usageText() {
  return `${synopses()}

${Object.keys(VERBS).map(describe).join('\n')}

${[FILE_FORMS, MODEL_FORMS, QUIET].join('\n\n')}`;
}

/** @param {string} verb */
export function verbHelp(verb) {
  return [`usage: safetensors-wasm ${VERBS[verb].synopsis}`, describe(verb), ...VERBS[verb].notes].join('\n\n');
}

/** The package's version, from its package.json. */
export function version() {
  return JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
}

/**
 * Prints what was wrong and the verb's usage (or the whole usage) on stderr.
 * @param {string | null} verb
 * @param {string} problem what was expected, and what was given
 * @returns {number} the exit status of a misuse: 2
 */
export function misuse(verb, problem) {
  const usage = verb ? `usage: safetensors-wasm ${VERBS[verb].synopsis}` : synopses();
  const more = `\n(safetensors-wasm ${verb ? `${verb} ` : ''}--help says more)`;
  console.error(`safetensors-wasm${verb ? ` ${verb}` : ''}: ${problem}\n${usage}${more}`);
  return 2;
}

/**
 * A verb's arguments: its flags, option values and files.
 * @typedef {{ help: boolean, files: string[], has: (flag: string) => boolean,
 *   value: (option: string) => string | undefined, all: (option: string) => string[] }} Parsed
 */

/**
 * Splits a verb's arguments (`--opt=value` and `--opt value` alike; `--` ends the options;
 * `-` is a file: standard input).
 * @param {string} verb a key of VERBS
 * @param {string[]} args
 * @returns {Parsed | string} the parsed arguments, or what is wrong with them
 */
export function parseCommand(verb, args) {
  const { flags, values = [], repeated = [], files: count } = VERBS[verb];
  const seen = new Set();
  /** @type {Map<string, string[]>} */
  const given = new Map();
  const files = [];
  let help = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      files.push(...args.slice(i + 1));
      break;
    }
    if (arg === '-' || !arg.startsWith('-')) {
      files.push(arg);
      continue;
    }
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = ALIASES[arg] ?? (eq > 0 ? arg.slice(0, eq) : arg);
    if (name === '--help') help = true;
    else if (flags.includes(name) && eq < 0) seen.add(name);
    else if (values.includes(name) || repeated.includes(name)) {
      const value = eq > 0 ? arg.slice(eq + 1) : args[++i];
      if (value === undefined) return `${name} needs a value`;
      if (values.includes(name) && given.has(name)) return `${name} was given twice`;
      given.set(name, [...(given.get(name) ?? []), value]);
    } else if (flags.includes(name)) return `${name} takes no value`;
    else return `unknown option ${name} (${verb} takes ${[...flags, ...values, ...repeated].join(', ')})`;
  }
  const has = (/** @type {string} */ flag) => seen.has(flag);
  const all = (/** @type {string} */ option) => given.get(option) ?? [];
  const parsed = { help, files, has, all, value: (/** @type {string} */ option) => all(option)[0] };
  if (help) return parsed;
  if (files.length === 0) return count === 'one' ? 'expected a FILE' : 'expected one or more FILEs';
  if (count === 'one' && files.length > 1) return `expected one FILE, got ${files.length}: ${files.join(' ')}`;
  if (files.filter((f) => f === '-').length > 1) return 'standard input (-) can be read only once';
  return parsed;
}
