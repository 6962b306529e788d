// createModelBom: a CycloneDX 1.6 bill of materials (JSON) of a model, made on the user's machine:
// the model as a `machine-learning-model` component with a modelCard (what the model card
// knows), one `file` component per file with its SHA-256, and, when given, the result of a
// signature check. The fields are CycloneDX 1.6's (https://cyclonedx.org/docs/1.6/json/); the
// package's own facts are properties named `safetensors-wasm:...`.
import { throwIfAborted } from '../core/abort.js';
import { listBomFiles } from './bom_files.js';
import { hashJobs } from '../model_files/file_digests.js';
import { bomCard } from './bom_card.js';
import { modelComponent, signatureProperties } from './bom_model.js';

/** This package's version, named as the BOM's tool (a test keeps it equal to package.json's). */
export const PACKAGE_VERSION = '0.1.0';
export const MODEL_REF = 'model';

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
 * @param {unknown} model a folder or file (see web/bom/bom_files.js)
 * @param {import('../index.js').ModelBomOptions} [options]
 * @returns {Promise<import('../index.js').CycloneDxBom>}
 */
export async function createModelBom(model, options = {}) {
  const o = checkBomOptions(options);
  throwIfAborted(o.signal);
  const { modelName, files, single } = await listBomFiles(model);
  const digests = await hashJobs(
    files.map((entry) => ({ entry, shards: null })),
    o,
  );
  const failed = digests.findIndex((d) => d instanceof Error);
  if (failed >= 0) throw digests[failed];
  const hashes = files.map((f, i) => ({ sha256: /** @type {string[]} */ (digests[i])[0], size: f.size }));
  const sizes = new Map(files.map((f) => [f.name, f.size]));
  const card = await bomCard(files, sizes, o);
  throwIfAborted(o.signal);
  // A signature names a single file's resource "."; here it is the file's component.
  const signed = (/** @type {string} */ name) => (single && name === '.' ? files[0].name : name);
  const statuses = new Map((o.signature?.files ?? []).map((f) => [signed(f.name), f.status]));
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
