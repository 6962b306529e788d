// A Civitai model version in the shape Civitai documents for
// GET /api/v1/model-versions/by-hash/{hash} (https://developer.civitai.com/site/reference/model-versions),
// with values of our own: what the Node and the Chromium tests' fake Civitai answer.

/**
 * @param {number} id the version's id
 * @param {number} modelId
 * @param {object} [extra] fields to add or replace
 */
export function versionJson(id, modelId, extra = {}) {
  return {
    id,
    modelId,
    name: 'v2.0',
    description: null,
    baseModel: 'SDXL 1.0',
    baseModelType: 'Standard',
    air: `urn:air:sdxl:lora:civitai:${modelId}@${id}`,
    status: 'Published',
    trainedWords: ['sks style', 'watercolor'],
    stats: { downloadCount: 10, thumbsUpCount: 2 },
    model: { name: 'Test Watercolor', type: 'LORA', nsfw: false, poi: false },
    files: [{ name: 'x.safetensors', hashes: { SHA256: 'AB', AutoV2: 'CD' }, primary: true }],
    images: [],
    downloadUrl: `https://civitai.com/api/download/models/${id}`,
    ...extra,
  };
}
