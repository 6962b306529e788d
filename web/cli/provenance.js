// The provenance verbs. safetensors-wasm verify-signature: an OpenSSF model signature
// (model_signing v1.x) checked against MODEL (a folder or a file); exit 0 verified, 1 not, 2
// usage. safetensors-wasm sbom MODEL [-o OUT]: the model's CycloneDX 1.6 bill of materials
// (JSON), to stdout or to OUT (written whole under a temporary name, then renamed).
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { relative, resolve, sep } from 'node:path';
import { createModelBom, verifyModelSignature } from '../index.js';
import { printable } from './text.js';
import { misuse } from './usage.js';

/**
 * What the options say beyond their syntax (usage.js parses that); a string says what is wrong.
 * @param {import('./usage.js').Parsed} parsed
 */
function methodProblem(parsed) {
  if (parsed.value('--signature') === undefined) return 'verify-signature needs --signature SIG';
  const keyless = parsed.value('--identity') !== undefined || parsed.value('--issuer') !== undefined;
  const methods = [parsed.value('--public-key') !== undefined, parsed.all('--certificate-chain').length > 0, keyless];
  if (methods.filter(Boolean).length !== 1)
    return 'give exactly one of --public-key PEM, --certificate-chain PEM..., or --identity ID --issuer URL';
  if (keyless && (parsed.value('--identity') === undefined || parsed.value('--issuer') === undefined))
    return 'keyless verification needs both --identity and --issuer';
  return null;
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

/**
 * @param {import('./usage.js').Parsed} parsed
 * @param {import('./terminal.js').Terminal} term
 */
export async function verifySignature(parsed, term) {
  const problem = methodProblem(parsed);
  if (problem) return misuse('verify-signature', problem);
  const [model] = parsed.files;
  const json = parsed.has('--json');
  /** @type {import('../index.js').VerifySignatureOptions} */
  const options = {
    signature: /** @type {string} */ (parsed.value('--signature')),
    allowSymlinks: parsed.has('--allow-symlinks'),
  };
  const root = resolve(model);
  // As model_signing's CLI: from the current directory, kept when inside the model.
  options.ignorePaths = parsed
    .all('--ignore-paths')
    .map((p) => relative(root, resolve(p)))
    .filter((p) => p !== '' && p !== '..' && !p.startsWith(`..${sep}`))
    .map((p) => p.split(sep).join('/'));
  let result;
  try {
    const key = parsed.value('--public-key');
    if (key !== undefined) options.publicKey = await readFile(key, 'utf8');
    const chain = parsed.all('--certificate-chain');
    if (chain.length) options.certificateChain = await Promise.all(chain.map((p) => readFile(p, 'utf8')));
    if (parsed.value('--identity') !== undefined)
      [options.identity, options.issuer] = [parsed.value('--identity'), parsed.value('--issuer')];
    const trusted = parsed.value('--trusted-root');
    if (trusted !== undefined) options.trustedRoot = await readFile(trusted, 'utf8');
    result = await term.withProgress(`hashing ${printable(model)}`, (onProgress) =>
      verifyModelSignature(model, { ...options, onProgress }),
    );
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

/**
 * @param {import('./usage.js').Parsed} parsed
 * @param {import('./terminal.js').Terminal} term
 */
export async function sbom(parsed, term) {
  const out = parsed.value('-o') ?? null;
  const models = parsed.files;
  let bom;
  try {
    bom = await term.withProgress(`hashing ${printable(models[0])}`, (onProgress) =>
      createModelBom(models[0], { onProgress }),
    );
  } catch (error) {
    console.error(printable(`sbom: cannot read ${models[0]}: ${error instanceof Error ? error.message : error}`));
    return 1;
  }
  const text = `${JSON.stringify(bom, null, 2)}\n`;
  if (out === null) {
    process.stdout.write(text);
    return 0;
  }
  const partial = `${out}.partial-${process.pid}`;
  try {
    await writeFile(partial, text);
    await rename(partial, out);
  } catch (error) {
    await rm(partial, { force: true });
    console.error(printable(`sbom: cannot write ${out}: ${error instanceof Error ? error.message : error}`));
    return 1;
  }
  return 0;
}
