// verifyModelSignature: an OpenSSF model signature (sigstore/model-transparency's model_signing
// v1.x: a Sigstore bundle holding a DSSE envelope over an in-toto Statement) checked against
// the model's files. The signature first (its method: a public key, a certificate chain or
// Sigstore keyless), then the manifest it signs, then every file, each read once.
import { NotVerified } from './errors.js';
import { BUNDLE_V03, parseBundle } from './bundle.js';
import { manifestOf, posixName } from './statement.js';
import { importPublicKey, verifyWithKey } from './ec_key.js';
import { listModel } from '../model_files/model_files.js';
import { readSignature } from './signature_input.js';
import { compareModel } from './compare.js';
import { throwIfAborted } from '../core/abort.js';

/** What model_signing always leaves out at the model's root (its hashing.Config). */
export const GIT_PATHS = ['.git', '.gitattributes', '.github', '.gitignore'];

/**
 * The method the options name, exactly one.
 * @param {import('./types.js').VerifySignatureOptions} options
 * @returns {import('./types.js').SignatureMethod}
 */
function methodOf(options) {
  const named = [];
  if (options.publicKey !== undefined) named.push('key');
  if (options.certificateChain !== undefined) named.push('certificate');
  if (options.identity !== undefined || options.issuer !== undefined) named.push('sigstore');
  if (named.length !== 1)
    throw new TypeError(
      'verifyModelSignature needs exactly one of: publicKey, certificateChain, or identity with issuer' +
        (named.length ? ` (got ${named.join(', ')})` : ''),
    );
  return /** @type {import('./types.js').SignatureMethod} */ (named[0]);
}

/**
 * Paths relative to the model, those that leave it dropped (as model_signing drops them).
 * @param {Iterable<string>} paths
 */
function relativePaths(paths) {
  return [...paths].map(posixName).filter((p) => !p.startsWith('/') && p !== '..' && !p.startsWith('../'));
}

/**
 * @param {string[]} paths normalized
 * @returns {(name: string) => boolean}
 */
function ignoring(paths) {
  return (name) => name !== '.' && paths.some((p) => p === '.' || name === p || name.startsWith(`${p}/`));
}

/**
 * @param {import('./bundle.js').Bundle} bundle
 * @param {import('./types.js').SignatureMethod} method
 * @param {import('./types.js').VerifySignatureOptions} options
 * @returns {Promise<import('./types.js').Signer>}
 */
async function verifyBundle(bundle, method, options) {
  if (method !== 'sigstore' && bundle.mediaType !== BUNDLE_V03)
    throw new NotVerified('UnsupportedBundle', `expected a ${BUNDLE_V03} bundle, got ${bundle.mediaType}`);
  if (method === 'key') {
    const key = await importPublicKey(/** @type {string | Uint8Array} */ (options.publicKey));
    return verifyWithKey(bundle, key);
  }
  // Loaded on first use: they bring PKI.js, which the key method and the rest of the package never need.
  if (method === 'certificate') {
    const { trustedCertificates, verifyWithCertificates } = await import('./certificate_chain.js');
    return verifyWithCertificates(bundle, trustedCertificates(options.certificateChain));
  }
  const { verifyKeyless } = await import('./keyless.js');
  return verifyKeyless(bundle, options);
}

/**
 * @param {unknown} model a Node path, Map name -> source, File[] / FileList, FileSystemDirectoryHandle, or one source
 * @param {import('./types.js').VerifySignatureOptions} options
 * @returns {Promise<import('./types.js').SignatureVerification>}
 */
export async function verifyModelSignature(model, options) {
  if (typeof options !== 'object' || options === null)
    throw new TypeError('verifyModelSignature(model, options): options is required');
  const method = methodOf(options);
  const { signal, onProgress } = options;
  throwIfAborted(signal);
  /** @type {import('./types.js').SignatureVerification} */
  const result = { verified: false, method, serialization: null, hashType: null, files: [], signer: null, error: null };
  const base = relativePaths([...(options.ignorePaths ?? []), ...(options.ignoreGitPaths === false ? [] : GIT_PATHS)]);
  try {
    let listed;
    try {
      listed = await listModel(model, ignoring(base), { allowSymlinks: options.allowSymlinks ?? false });
    } catch (error) {
      if (error instanceof TypeError || signal?.aborted) throw error;
      throw new NotVerified('ReadError', `could not list the model: ${/** @type {Error} */ (error).message}`);
    }
    const { bundle: text, name: signatureName } = await readSignature(options.signature, model, listed);
    const bundle = parseBundle(text);
    result.signer = await verifyBundle(bundle, method, options);
    const manifest = await manifestOf(bundle.payloadType, bundle.payload);
    result.serialization = manifest.serialization.method;
    result.hashType = manifest.serialization.hashType;
    const ignored = ignoring(
      relativePaths([...manifest.serialization.ignorePaths, ...(signatureName ? [signatureName] : [])]),
    );
    const entries = listed.entries.filter((e) => !ignored(e.name));
    const symlinks = listed.symlinks.filter((n) => !ignored(n));
    if (symlinks.length > 0 && !(options.allowSymlinks ?? false))
      throw new NotVerified(
        'ModelMismatch',
        `the model holds symbolic links (${symlinks.slice(0, 3).join(', ')}); pass allowSymlinks to follow them`,
      );
    const { files, readError } = await compareModel(manifest, { ...listed, entries }, { signal, onProgress });
    result.files = files;
    if (readError) throw new NotVerified('ReadError', `could not read ${readError}`);
    const bad = files.filter((f) => f.status !== 'ok');
    if (bad.length > 0) {
      const counts = ['modified', 'missing', 'unexpected']
        .map((s) => [s, bad.filter((f) => f.status === s)])
        .filter(([, list]) => list.length > 0)
        .map(
          ([s, list]) =>
            `${list.length} ${s} (${
              /** @type {{ name: string }[]} */ (list)
                .slice(0, 3)
                .map((f) => f.name)
                .join(', ')
            }${list.length > 3 ? ', …' : ''})`,
        );
      throw new NotVerified('ModelMismatch', `the model does not match its signature: ${counts.join('; ')}`);
    }
    result.verified = true;
  } catch (error) {
    if (!(error instanceof NotVerified)) throw error;
    result.error = { code: error.code, message: error.message };
  }
  return result;
}
