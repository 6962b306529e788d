// A diffusers pipeline: model_index.json names its components ("unet": ["diffusers",
// "UNet2DConditionModel"], ...), each saved in a folder of its name with its own checkpoint,
// one file or sharded. Each component with weights is opened as a file or a sharded model.
// File names as diffusers and transformers save them: diffusion_pytorch_model.safetensors
// (diffusers, utils/constants.py) and model.safetensors (transformers), sharded with
// <name>.safetensors.index.json; a variant goes before the last dot (diffusers and
// transformers _add_variant: diffusion_pytorch_model.fp16.safetensors,
// diffusion_pytorch_model.safetensors.index.fp16.json).
import { initSafetensors } from '../core/modules.js';
import { SafetensorsError, errorText } from '../core/errors.js';
import { throwIfAborted } from '../core/abort.js';
import { PIPELINE_INDEX, locatePipeline } from './pipeline_files.js';
import { pooled } from './sharded_model.js';
import { CONFIG } from './model_config.js';

/** Component classes that hold no weights: schedulers, tokenizers, image processors. */
const NO_WEIGHTS_CLASS = /(Scheduler|Tokenizer|TokenizerFast|Processor|FeatureExtractor)$/;

/** @param {string} name @param {string | undefined} variant */
function withVariant(name, variant) {
  if (!variant) return name;
  const dot = name.lastIndexOf('.');
  return `${name.slice(0, dot)}.${variant}${name.slice(dot)}`;
}

/**
 * The checkpoint names to look for, best first: the library's own base name, then the other's;
 * with a variant, its names first, then the plain ones. A component that has no file of the
 * variant is opened from its plain weights, as diffusers does (variant_compatible_siblings in
 * src/diffusers/pipelines/pipeline_loading_utils.py: per component, the variant's files when
 * it has some, else its non-variant files).
 * @param {string | null} library
 * @param {string | undefined} variant
 * @returns {{ name: string, sharded: boolean }[]}
 */
function weightNames(library, variant) {
  const bases =
    library === 'transformers' ? ['model', 'diffusion_pytorch_model'] : ['diffusion_pytorch_model', 'model'];
  const named = (/** @type {string | undefined} */ v) =>
    bases.flatMap((base) => [
      { name: withVariant(`${base}.safetensors`, v), sharded: false },
      { name: withVariant(`${base}.safetensors.index.json`, v), sharded: true },
    ]);
  return variant ? [...named(variant), ...named(undefined)] : named(undefined);
}

/**
 * @typedef {{ name: string, library: string | null, className: string | null }} ListedComponent
 * @typedef {{ openSafetensors: typeof import('../index.js').openSafetensors, openSafetensorsIndex: typeof import('../index.js').openSafetensorsIndex }} OpenApi
 */

/**
 * The components model_index.json lists: every key not starting with "_" whose value is [library, class].
 * @param {Record<string, unknown>} config the parsed model_index.json
 * @param {string} where model_index.json's place, for messages
 * @returns {ListedComponent[]}
 */
function componentsOf(config, where) {
  const components = [];
  for (const [name, value] of Object.entries(config)) {
    if (name.startsWith('_')) continue;
    if (!Array.isArray(value) || value.length !== 2) continue; // a pipeline option (e.g. "requires_safety_checker": true)
    const [library, className] = value;
    if ((library !== null && typeof library !== 'string') || (className !== null && typeof className !== 'string')) {
      throw new SafetensorsError(
        'InvalidIndex',
        `${where}: component ${JSON.stringify(name)} is not [library, class] strings`,
      );
    }
    // eslint-disable-next-line no-control-regex
    if (name === '' || name === '.' || name === '..' || /[/\\\u0000-\u001f]/.test(name)) {
      throw new SafetensorsError(
        'InvalidIndex',
        `${where}: component name ${JSON.stringify(name)} is not a plain folder name`,
      );
    }
    components.push({ name, library, className });
  }
  return components;
}

const isNotFound = (/** @type {unknown} */ error) =>
  error instanceof SafetensorsError && (error.status === 404 || error.status === 410);

/**
 * Opens one component: the first expected checkpoint name its folder holds (from the listing,
 * or over HTTP by trying each name until one is not a 404).
 * @param {ListedComponent} component
 * @param {import('./pipeline_files.js').PipelineFiles} files
 * @param {import('../index.js').PipelineOptions} options
 * @param {OpenApi} api
 * @param {(code: string) => import('../index.js').Finding['severity']} severity a finding code's severity (the core's table)
 */
async function openComponent(component, files, options, api, severity) {
  const { name, library, className } = component;
  const { fetch, headers, signal, firstRead, concurrency, maxBytesInFlight, variant } = options;
  const base = {
    name,
    library,
    className,
    weights: /** @type {'file' | 'sharded' | 'none' | 'missing'} */ ('none'),
    path: null,
    model: null,
    report: null,
  };
  if (library === null || className === null) return { ...base, findings: [] }; // a disabled component ([null, null])
  const expectsWeights = !NO_WEIGHTS_CLASS.test(className);
  const missing = (/** @type {string} */ why) => {
    if (!expectsWeights) return { ...base, findings: [] };
    const finding = {
      code: 'ComponentMissing',
      severity: severity('ComponentMissing'),
      message: `component ${JSON.stringify(name)} (${library} ${className}) has no safetensors weights: ${why}`,
      component: name,
    };
    return { ...base, weights: /** @type {const} */ ('missing'), findings: [finding] };
  };
  const listing = await files.list(name);
  if (listing === null && !expectsWeights) return { ...base, findings: [] }; // over HTTP: not worth a request
  const candidates = weightNames(library, variant);
  const tagged = (/** @type {import('../index.js').Finding[]} */ findings) =>
    findings.map((f) => ({ ...f, component: name }));
  // The component's own config.json (a text encoder's, say): listed, or over HTTP tried on describe().
  const config = listing === null || listing.includes(CONFIG) ? files.configAt(`${name}/${CONFIG}`) : null;
  for (const { name: file, sharded } of candidates) {
    if (listing !== null && !listing.includes(file)) continue;
    const path = `${name}/${file}`;
    const opened = {
      ...base,
      weights: sharded ? /** @type {const} */ ('sharded') : /** @type {const} */ ('file'),
      path,
    };
    try {
      if (sharded) {
        const index = await files.index(path);
        // An index URL finds the config.json beside it; { index, resolve } is given it.
        const source = typeof index === 'object' && 'index' in index ? { ...index, config } : index;
        const model = await api.openSafetensorsIndex(source, {
          fetch,
          headers,
          signal,
          firstRead,
          concurrency,
          maxBytesInFlight,
        });
        return {
          ...opened,
          model,
          report: {
            loadable: model.loadable,
            referenceError: null,
            findings: model.findings,
            tensors: model.tensors.length,
          },
          findings: tagged(model.findings),
        };
      }
      const model = await api.openSafetensors(await files.file(path), { fetch, headers, signal, firstRead, config });
      return { ...opened, model, report: model.report, findings: tagged(model.findings) };
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (listing === null && isNotFound(error)) continue; // over HTTP: try the next name
      if (error instanceof SafetensorsError && error.report)
        return { ...opened, report: error.report, findings: tagged(error.report.findings) };
      if (error instanceof SafetensorsError) return missing(`${path} cannot be read: ${errorText(error)}`);
      throw error;
    }
  }
  if (listing === null) return missing(`none of ${candidates.map((c) => c.name).join(', ')} is on the server`);
  const other = listing.filter((f) => /\.safetensors(\.index(\.[^.]+)?\.json)?$/.test(f));
  if (other.length > 0) {
    const hint = variant ? '' : ' (a variant such as fp16? pass { variant })';
    return missing(
      `its folder holds ${other.join(', ')} but none of the expected ${candidates.map((c) => c.name).join(', ')}${hint}`,
    );
  }
  return missing(
    listing.length === 0
      ? `there is no ${name}/ folder, or it is empty`
      : `its folder holds ${listing.slice(0, 5).join(', ')}${listing.length > 5 ? ', …' : ''} and no .safetensors file`,
  );
}

/**
 * @param {unknown} source
 * @param {import('../index.js').PipelineOptions} options
 * @param {OpenApi} api
 * @returns {Promise<import('../index.js').SafetensorsPipeline>}
 */
export async function openPipeline(source, options, api) {
  const { signal, onProgress, variant, fetch, headers, firstRead, concurrency, maxBytesInFlight } = options;
  if (variant !== undefined && (typeof variant !== 'string' || !/^[A-Za-z0-9_-]+$/.test(variant)))
    throw new TypeError('options.variant must be a word such as "fp16"');
  throwIfAborted(signal);
  const files = await locatePipeline(source, { fetch, headers, signal });
  const core = await initSafetensors();
  const severity = (/** @type {string} */ code) => core.severity(code);
  const listed = componentsOf(files.config, files.where);
  let done = 0;
  const componentOptions = { fetch, headers, signal, firstRead, concurrency, maxBytesInFlight, variant };
  // Components open a few at a time; a sharded one opens its own shards concurrently too.
  const components = await pooled(listed.length, 4, async (/** @type {number} */ i) => {
    const component = await openComponent(listed[i], files, componentOptions, api, severity);
    onProgress?.(++done, listed.length);
    return component;
  });
  throwIfAborted(signal);
  const findings = components.flatMap((c) => c.findings);
  return {
    className: typeof files.config._class_name === 'string' ? files.config._class_name : null,
    metadata: files.config,
    components: components.map(({ findings: _, ...c }) => c),
    findings,
    loadable: findings.every((f) => f.severity !== 'error'),
  };
}

export { PIPELINE_INDEX };
