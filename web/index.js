// Public API: open a .safetensors file (header, metadata, tensor list) or validate it.
import { initSafetensors } from './core.js';
import { toByteSource } from './byte_source.js';
import { SafetensorsError } from './errors.js';
import { readHeader } from './read_header.js';
import { moduleTree } from './header_table.js';
import { planTensorRead } from './tensor_plan.js';
import { decodeTensor } from './tensor_decode.js';
import { scanData } from './data_scan.js';

export { SafetensorsError, initSafetensors };

function checkOptions(options) {
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
  const { signal, onProgress } = options;
  if (signal !== undefined && !(signal instanceof AbortSignal)) throw new TypeError('options.signal must be an AbortSignal');
  if (onProgress !== undefined && typeof onProgress !== 'function') throw new TypeError('options.onProgress must be a function');
  return options;
}

function tensorNotFound(name, tensors) {
  const some = tensors.slice(0, 3).map((t) => JSON.stringify(t.name)).join(', ');
  const has = tensors.length === 0 ? 'it has no tensors' : `it has ${tensors.length}, e.g. ${some}`;
  return new SafetensorsError('TensorNotFound', `no tensor named ${JSON.stringify(name)} in this file; ${has}`, { tensor: name });
}

/**
 * The verdict part of a decoded header: what validateSafetensors returns.
 * @param {ReturnType<typeof import('./header_table.js').decodeHeaderTable>} header
 * @returns {import('./index.js').ValidationReport}
 */
function verdictOf(header) {
  return { loadable: header.referenceError === null, referenceError: header.referenceError, findings: header.findings, tensors: header.tensors.length };
}

async function readSource(input, signal, withCard = false) {
  const source = await toByteSource(input);
  const header = await readHeader(await initSafetensors(), source, signal, withCard);
  return { source, header };
}

/**
 * The model card of an opened file: its header read and analysed again, this time with the
 * card (building the card costs about half an analysis, which opening does not pay).
 * @param {{ size: number, read(offset: number, length: number): Promise<Uint8Array> }} source
 * @param {ReturnType<typeof import('./header_table.js').decodeHeaderTable>} opened
 * @param {AbortSignal} [signal]
 */
async function readCard(source, opened, signal) {
  const again = await readHeader(await initSafetensors(), source, signal, true);
  if (again.card === null || again.headerSize !== opened.headerSize || again.tensors.length !== opened.tensors.length) {
    throw new SafetensorsError('ReadError', 'the file changed after it was opened: its header is not the same; open it again');
  }
  return again.card;
}

/**
 * Reads the header of a .safetensors file and returns its tensors and metadata, its
 * report, and getTensor() to read tensors. Only the first 8 + N bytes are read here.
 * @param {import('./index.js').SafetensorsSource} input
 * @param {import('./index.js').ReadOptions} [options]
 * @returns {Promise<import('./index.js').SafetensorsFile>}
 * @throws {SafetensorsError} when the reference loader would reject the file (with `.report`)
 */
export async function openSafetensors(input, options = {}) {
  const { signal } = checkOptions(options);
  const { source, header } = await readSource(input, signal);
  const report = verdictOf(header);
  if (report.referenceError !== null) {
    const [first] = header.findings;
    throw new SafetensorsError(report.referenceError, first.message, { tensor: first.tensor, findings: header.findings, report });
  }
  const { dataStart, tensors, dtypeIndex } = header;
  let byIndex = null; // name -> index, built on the first getTensor: opening stays as cheap as the header parse
  let card = null; // the model card's JSON and module tree, from the first describe()
  /** @type {import('./index.js').SafetensorsFile} */
  const file = {
    tensors,
    metadata: header.metadata,
    headerSize: header.headerSize,
    dataStart,
    fileSize: header.fileSize,
    findings: header.findings,
    report,
    /**
     * Reads one tensor (or rows of it) into a typed array, streaming only its bytes.
     * @param {string} name
     * @param {{ as?: 'native' | 'float32' | 'raw', rows?: [number, number], signal?: AbortSignal,
     *   onProgress?: (bytesDone: number, bytesTotal: number) => void, into?: ArrayBufferView }} [tensorOptions]
     *   `into`: an array of the result's type to fill (and return a view of) instead of a new one
     */
    async getTensor(name, tensorOptions = {}) {
      checkOptions(tensorOptions);
      byIndex ??= new Map(tensors.map((t, i) => [t.name, i]));
      const index = byIndex.get(name);
      if (index === undefined) throw tensorNotFound(name, tensors);
      const tensor = tensors[index];
      const core = await initSafetensors();
      const plan = planTensorRead(tensor, core.tables.dtypes[dtypeIndex[index]], dataStart, tensorOptions);
      return decodeTensor(core, source, plan, tensor, tensorOptions);
    },
    /**
     * The model card, built by the core when the header was read (a new object each call).
     * Reads no tensor data, unless `readAlpha` is set and only an adapter's `.alpha`
     * tensors hold its alpha: then one of those scalars is read.
     * @param {{ readAlpha?: boolean, signal?: AbortSignal }} [describeOptions]
     * @returns {Promise<import('./index.js').ModelCard>}
     */
    async describe(describeOptions = {}) {
      const { readAlpha = false, signal } = checkOptions(describeOptions);
      if (typeof readAlpha !== 'boolean') throw new TypeError('options.readAlpha must be a boolean');
      card ??= await readCard(source, header, signal);
      /** @type {import('./index.js').ModelCard} */
      const described = { ...JSON.parse(card.json), modules: moduleTree(card.modules) };
      const adapter = described.adapter;
      if (readAlpha && adapter && adapter.alpha === null && adapter.alphaTensor !== undefined) {
        const [alpha] = /** @type {Float32Array} */ (await file.getTensor(adapter.alphaTensor, { as: 'float32', signal }));
        if (Number.isFinite(alpha)) adapter.alpha = alpha;
      }
      return described;
    },
  };
  return file;
}

/**
 * Says whether the reference loader accepts the file and what else is worth
 * knowing about it. Never throws for a bad file (only for bad arguments or
 * failed reads). With `scanData: true`, a loadable file's tensors are also read
 * once, chunk by chunk, counting NaN, infinities and all-zero tensors.
 * @param {import('./index.js').SafetensorsSource} input
 * @param {import('./index.js').ValidateOptions} [options]
 * @returns {Promise<import('./index.js').ValidationReport>}
 */
export async function validateSafetensors(input, options = {}) {
  const { signal, scanData: wantScan = false } = checkOptions(options);
  if (typeof wantScan !== 'boolean') throw new TypeError('options.scanData must be a boolean');
  const { source, header } = await readSource(input, signal);
  const result = verdictOf(header);
  if (!wantScan) return result;
  if (!result.loadable) return { ...result, dataScan: null };
  const scan = await scanData(await initSafetensors(), source, header, options);
  return { ...result, findings: [...header.findings, ...scan.findings], dataScan: scan.dataScan };
}
