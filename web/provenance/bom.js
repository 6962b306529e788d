// createModelBom: a CycloneDX 1.6 bill of materials (JSON) of a model, made on the user's machine:
// the model as a `machine-learning-model` component with a modelCard (what the model card
// knows), one `file` component per file with its SHA-256, and, when given, the result of a
// signature check. The fields are CycloneDX 1.6's (https://cyclonedx.org/docs/1.6/json/); the
// package's own facts are properties named `safetensors-wasm:...`.
import { throwIfAborted } from '../core/abort.js';
import { openHashPass } from '../hashing/hash_pass.js';
import { readRanges } from '../source/read_ranges.js';
import { listBomFiles, openBomFile } from './bom_files.js';
import { bomCard } from './bom_card.js';
import { modelComponent, signatureProperties } from './bom_model.js';

/** This package's version, named as the BOM's tool (a test keeps it equal to package.json's). */
export const PACKAGE_VERSION = '0.1.0';
export const MODEL_REF = 'model';
/** Files hashed at once. */
const FILE_CONCURRENCY = 2;

/**
 * SHA-256 of every file, `FILE_CONCURRENCY` at a time, with progress over all bytes.
 * @param {import('./bom_files.js').BomFile[]} files
 * @param {{ signal?: AbortSignal, onProgress?: (done: number, total: number) => void }} options
 * @returns {Promise<{ sha256: string, size: number }[]>}
 */
async function hashFiles(files, options) {
  // Sizes first (for progress), then each file opened while it is hashed: few open at once.
  const sizes = [];
  for (const f of files) {
    const o = await openBomFile(f);
    sizes.push(o.bytes.size);
    await o.close();
  }
  const total = sizes.reduce((sum, n) => sum + n, 0);
  let done = 0;
  /** @type {{ sha256: string, size: number }[]} */
  const out = new Array(files.length);
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const i = next++;
      const { bytes, close } = await openBomFile(files[i]);
      try {
        const pass = await openHashPass({ size: bytes.size, dataStart: null, file: true, data: false, tensors: null });
        try {
          await readRanges(bytes, pass.ranges, { signal: options.signal }, async (chunk, at) => {
            await pass.push(chunk, at);
            done += chunk.byteLength;
            options.onProgress?.(done, total);
          });
          out[i] = { sha256: /** @type {string} */ ((await pass.finish()).sha256), size: bytes.size };
        } finally {
          pass.close();
        }
      } finally {
        await close();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(FILE_CONCURRENCY, files.length) }, worker));
  if (total === 0) options.onProgress?.(0, 0);
  return out;
}

/** @param {unknown} options */
function checkBomOptions(options) {
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
  const o = /** @type {import('../index.js').ModelBomOptions} */ (options);
  if (o.timestamp !== undefined && !(o.timestamp instanceof Date && !Number.isNaN(o.timestamp.getTime())))
    throw new TypeError('options.timestamp must be a valid Date');
  if (
    o.serialNumber !== undefined &&
    !/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(String(o.serialNumber))
  )
    throw new TypeError('options.serialNumber must be urn:uuid: followed by an RFC 4122 UUID');
  return o;
}

/**
 * @param {unknown} model a folder or file (see web/provenance/bom_files.js)
 * @param {import('../index.js').ModelBomOptions} [options]
 * @returns {Promise<import('../index.js').CycloneDxBom>}
 */
export async function createModelBom(model, options = {}) {
  const o = checkBomOptions(options);
  throwIfAborted(o.signal);
  const { modelName, files } = await listBomFiles(model);
  const hashes = await hashFiles(files, o);
  const sizes = new Map(files.map((f, i) => [f.name, hashes[i].size]));
  const card = await bomCard(files, sizes, o);
  throwIfAborted(o.signal);
  const statuses = new Map((o.signature?.files ?? []).map((f) => [f.name, f.status]));
  const fileComponents = files.map((f, i) => {
    const status = statuses.get(f.name);
    return {
      type: 'file',
      'bom-ref': `file:${f.name}`,
      name: f.name,
      hashes: [{ alg: 'SHA-256', content: hashes[i].sha256 }],
      properties: [
        { name: 'safetensors-wasm:bytes', value: String(hashes[i].size) },
        ...(status ? [{ name: 'safetensors-wasm:signature:status', value: status }] : []),
      ],
    };
  });
  // Signed files that are not among the files (deleted ones): the signature's status says so.
  const missing = [...statuses].filter(([name]) => !sizes.has(name));
  const component = modelComponent(card, modelName, MODEL_REF);
  if (o.signature) component.properties.push(...signatureProperties(o.signature, missing));
  const { properties, ...rest } = component;
  return {
    $schema: 'http://cyclonedx.org/schema/bom-1.6.schema.json',
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    serialNumber: o.serialNumber ?? `urn:uuid:${globalThis.crypto.randomUUID()}`,
    version: 1,
    metadata: {
      timestamp: (o.timestamp ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      tools: { components: [{ type: 'library', name: 'safetensors-wasm', version: PACKAGE_VERSION }] },
      component: properties.length ? component : rest,
    },
    components: fileComponents,
    dependencies: [
      { ref: MODEL_REF, dependsOn: fileComponents.map((c) => c['bom-ref']) },
      ...fileComponents.map((c) => ({ ref: c['bom-ref'] })),
    ],
  };
}
