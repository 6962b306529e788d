// The model's component in its bill of materials: CycloneDX 1.6's `machine-learning-model` with a
// modelCard (modelParameters: architecture family and architecture; the rest of what the model
// card knows as properties), its title, description, author, license, links, and its base model
// as a pedigree ancestor. Metadata comes from strangers: it is only ever a JSON string here.

/** @typedef {{ name: string, value: string }} Property */

/** @param {string} name @param {unknown} value @returns {Property[]} */
const prop = (name, value) =>
  value === null || value === undefined || value === ''
    ? []
    : [{ name: `safetensors-wasm:${name}`, value: String(value) }];

/** An http(s) URL as written, or null (the schema wants IRIs; links to anything else are not given). */
function httpUrl(/** @type {unknown} */ text) {
  if (typeof text !== 'string') return null;
  try {
    const url = new URL(text.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * @param {import('../index.js').ModelCard} card
 * @returns {Property[]}
 */
function cardProperties(card) {
  /** @type {Property[]} */
  const out = [...prop('kind', card.kind), ...prop('parameters', card.parameters.total)];
  for (const [dtype, n] of Object.entries(card.parameters.byDtype)) out.push(...prop(`parameters:${dtype}`, n));
  out.push(...prop('dtypes', Object.keys(card.parameters.byDtype).join(',')));
  if (card.parameters.quantized) {
    out.push(...prop('quantized', card.parameters.quantized.scheme));
    out.push(...prop('quantized:estimatedParameters', card.parameters.quantized.estimatedTotal));
  }
  if (card.family) out.push(...prop('family', card.family.id), ...prop('family:variant', card.family.variant));
  const a = card.adapter;
  if (a) {
    out.push(...prop('adapter', a.type), ...prop('adapter:format', a.format));
    out.push(...prop('adapter:rank', a.rank), ...prop('adapter:alpha', a.alpha));
    out.push(...prop('adapter:targets', a.targets.join(',')));
  }
  const base = card.baseModel;
  if (base)
    out.push(
      ...prop('baseModel', base.name),
      ...prop('baseModel:version', base.version),
      ...prop('baseModel:hash', base.hash),
    );
  for (const w of card.triggerWords) out.push(...prop('triggerWord', w.text));
  for (const [key, value] of Object.entries(card.training ?? {})) out.push(...prop(`training:${key}`, value ?? 'null'));
  for (const h of card.embeddedHashes) out.push(...prop(`embeddedHash:${h.key}`, h.value));
  if (card.civitai) out.push(...prop('civitai:air', card.civitai.air), ...prop('civitai:page', card.civitai.pageUrl));
  return out;
}

/**
 * @param {import('../index.js').ModelCard | null} card null when no file is safetensors
 * @param {string} modelName the folder's or file's name
 * @param {string} ref its bom-ref
 */
export function modelComponent(card, modelName, ref) {
  /** @type {import('../index.js').CycloneDxComponent & { properties: Property[] }} */
  const c = { type: 'machine-learning-model', 'bom-ref': ref, name: card?.title ?? modelName, properties: [] };
  if (!card) return c;
  if (card.description) c.description = card.description;
  if (card.author) c.authors = [{ name: card.author }];
  if (card.license) c.licenses = [{ license: { name: card.license } }];
  const links = [httpUrl(card.civitai?.pageUrl), httpUrl(card.source)].filter((u) => u !== null);
  if (links.length) c.externalReferences = [...new Set(links)].map((url) => ({ type: 'website', url }));
  const base = card.baseModel;
  if (base && (base.name || base.version)) {
    const ancestor = { type: 'machine-learning-model', name: base.name ?? base.version };
    c.pedigree = { ancestors: [base.name && base.version ? { ...ancestor, version: base.version } : ancestor] };
  }
  /** @type {Record<string, string>} */
  const parameters = {};
  if (card.family) parameters.architectureFamily = card.family.id;
  const architecture = [card.family?.name, card.family?.variant, card.adapter ? `${card.adapter.type} adapter` : null];
  const text = architecture.filter(Boolean).join(', ');
  if (text) parameters.modelArchitecture = text;
  c.modelCard = {
    ...(Object.keys(parameters).length ? { modelParameters: parameters } : {}),
    properties: cardProperties(card),
  };
  return c;
}

/**
 * The signature check's result as the model component's properties.
 * @param {import('../index.js').BomSignatureResult} signature
 * @param {[string, string][]} missing signed files not among the files, with their status
 * @returns {Property[]}
 */
export function signatureProperties(signature, missing) {
  const { signer, error } = signature;
  return [
    ...prop('signature:verified', Boolean(signature.verified)),
    ...prop('signature:method', signature.method),
    ...prop('signature:serialization', signature.serialization),
    ...prop('signature:hashType', signature.hashType),
    ...prop('signature:signer', signer && typeof signer === 'object' ? JSON.stringify(signer) : signer),
    ...prop(
      'signature:error',
      typeof error === 'object' && error !== null
        ? (/** @type {{ message?: string }} */ (error).message ?? JSON.stringify(error))
        : error,
    ),
    ...missing.map(([name, status]) => ({ name: 'safetensors-wasm:signature:file', value: `${status} ${name}` })),
  ];
}
