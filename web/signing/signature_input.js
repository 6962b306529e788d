// The signature given to verifyModelSignature: the bundle's text and, when the signature file
// lies in the model, its name there (the reference ignores its own signature file).
import { NotVerified } from './errors.js';
import { MAX_BUNDLE_BYTES } from './bundle.js';
import { nodeModelFiles } from '../model_files/model_files.js';

/** model_signing's default signature file name. */
export const DEFAULT_SIGNATURE_NAME = 'model.sig';

/**
 * @param {Blob} blob
 */
async function blobText(blob) {
  if (blob.size > MAX_BUNDLE_BYTES)
    throw new NotVerified('MalformedBundle', `the signature is larger than ${MAX_BUNDLE_BYTES} bytes`);
  return blob.text();
}

/**
 * @param {import('../model_files/model_files.js').ModelEntry} entry
 */
async function entryText(entry) {
  if (entry.size > MAX_BUNDLE_BYTES)
    throw new NotVerified('MalformedBundle', `the signature is larger than ${MAX_BUNDLE_BYTES} bytes`);
  const source = await entry.open();
  try {
    return new TextDecoder().decode(await source.read(0, entry.size));
  } finally {
    await source.close?.();
  }
}

/**
 * The bundle as text or parsed JSON, and the name of the signature file in the model (or null).
 * @param {unknown} signature the option: undefined (model.sig in the model), a path (Node, when
 *   the model is a path too and the text does not start with "{"), JSON text, a parsed bundle,
 *   bytes or a Blob/File
 * @param {unknown} model
 * @param {import('../model_files/model_files.js').ModelFiles} listed the model's files
 * @returns {Promise<{ bundle: string | object, name: string | null }>}
 */
export async function readSignature(signature, model, listed) {
  if (signature === undefined || signature === null) {
    const entry = listed.entries.find((e) => e.name === DEFAULT_SIGNATURE_NAME);
    if (!entry || listed.single)
      throw new TypeError(`no signature given, and the model has no ${DEFAULT_SIGNATURE_NAME}: pass options.signature`);
    return { bundle: await entryText(entry), name: entry.name };
  }
  if (typeof signature === 'string' && typeof model === 'string' && !signature.trimStart().startsWith('{')) {
    const { readSignatureFile } = await nodeModelFiles();
    return readSignatureFile(signature, model);
  }
  if (typeof signature === 'string') return { bundle: signature, name: null };
  if (signature instanceof Uint8Array || signature instanceof ArrayBuffer)
    return { bundle: new TextDecoder().decode(signature), name: null };
  if (typeof Blob !== 'undefined' && signature instanceof Blob) {
    const name = listed.entries.find((e) => e.origin === signature)?.name ?? null;
    return { bundle: await blobText(signature), name };
  }
  if (typeof signature === 'object') return { bundle: signature, name: null };
  throw new TypeError(
    'options.signature must be the bundle (JSON text, object, bytes or a Blob) or, in Node, its path',
  );
}
