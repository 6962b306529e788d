// safetensors-wasm verify-signature: an OpenSSF model signature (model_signing v1.x) checked
// against MODEL (a folder or a file). Exit 0 verified, 1 not, 2 usage.
import { readFile } from 'node:fs/promises';
import { relative, resolve, sep } from 'node:path';
import { verifyModelSignature } from '../index.js';
import { printable } from './text.js';
import { usage } from './usage.js';

const VALUED = [
  '--signature',
  '--public-key',
  '--certificate-chain',
  '--identity',
  '--issuer',
  '--ignore-paths',
  '--trusted-root',
];

/**
 * Splits the arguments; a string says what is wrong.
 * @param {string[]} args
 */
export function parseVerifySignature(args) {
  /** @type {Record<string, string[]>} */
  const values = Object.fromEntries(VALUED.map((f) => [f, []]));
  const models = [];
  let json = false;
  let allowSymlinks = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (VALUED.includes(arg)) {
      const value = args[++i];
      if (value === undefined) return `${arg} needs a value`;
      values[arg].push(value); // --certificate-chain and --ignore-paths may be repeated
    } else if (arg === '--json') json = true;
    else if (arg === '--allow-symlinks') allowSymlinks = true;
    else if (arg.startsWith('-')) return `unknown option ${arg}`;
    else models.push(arg);
  }
  if (models.length !== 1) return 'verify-signature takes one MODEL (a folder or a file)';
  for (const single of ['--signature', '--public-key', '--identity', '--issuer', '--trusted-root'])
    if (values[single].length > 1) return `${single} is given twice`;
  if (values['--signature'].length === 0) return 'verify-signature needs --signature SIG';
  const methods = [
    values['--public-key'].length > 0,
    values['--certificate-chain'].length > 0,
    values['--identity'].length + values['--issuer'].length > 0,
  ];
  if (methods.filter(Boolean).length !== 1)
    return 'give exactly one of --public-key PEM, --certificate-chain PEM..., or --identity ID --issuer URL';
  if (methods[2] && (values['--identity'].length === 0 || values['--issuer'].length === 0))
    return 'keyless verification needs both --identity and --issuer';
  return { model: models[0], values, json, allowSymlinks };
}

const STATUS_WIDTH = 10;

/** @param {import('../index.js').SignatureVerification} r */
function signerText(r) {
  const s = r.signer;
  if (!s) return r.method;
  if (s.identity) return `${r.method}: ${s.identity} (issuer ${s.issuer}${s.signedAt ? `, signed ${s.signedAt}` : ''})`;
  if (s.certificate) return `${r.method}: ${s.certificate.subject} (issued by ${s.certificate.issuer})`;
  return `${r.method}: ${s.curve} key ${s.keyHint.slice(0, 16)}…`;
}

/** @param {string[]} args */
export async function verifySignature(args) {
  const parsed = parseVerifySignature(args);
  if (typeof parsed === 'string') {
    console.error(`verify-signature: ${parsed}`);
    return usage();
  }
  const { model, values, json, allowSymlinks } = parsed;
  /** @type {import('../index.js').VerifySignatureOptions} */
  const options = { signature: values['--signature'][0], allowSymlinks };
  const root = resolve(model);
  // As model_signing's CLI: from the current directory, kept when inside the model.
  options.ignorePaths = values['--ignore-paths']
    .map((p) => relative(root, resolve(p)))
    .filter((p) => p !== '' && p !== '..' && !p.startsWith(`..${sep}`))
    .map((p) => p.split(sep).join('/'));
  let result;
  try {
    if (values['--public-key'].length) options.publicKey = await readFile(values['--public-key'][0], 'utf8');
    if (values['--certificate-chain'].length)
      options.certificateChain = await Promise.all(values['--certificate-chain'].map((p) => readFile(p, 'utf8')));
    if (values['--identity'].length)
      [options.identity, options.issuer] = [values['--identity'][0], values['--issuer'][0]];
    if (values['--trusted-root'].length) options.trustedRoot = await readFile(values['--trusted-root'][0], 'utf8');
    result = await verifyModelSignature(model, options);
  } catch (error) {
    console.error(`verify-signature: ${printable(/** @type {Error} */ (error).message)}`);
    return 2;
  }
  if (json) process.stdout.write(`${JSON.stringify({ model, ...result }, null, 2)}\n`);
  else {
    const head = result.verified ? 'verified' : 'NOT verified';
    console.log(`${printable(model)}: ${head} (${printable(signerText(result))})`);
    if (result.serialization)
      console.log(`  serialization  ${result.serialization}, ${printable(result.hashType ?? '')}`);
    for (const f of result.files) console.log(`  ${f.status.padEnd(STATUS_WIDTH)} ${printable(f.name)}`);
    if (result.error) console.log(`  reason  ${result.error.code}: ${printable(result.error.message)}`);
  }
  return result.verified ? 0 : 1;
}
