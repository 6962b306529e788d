// Public API: open a .safetensors file (header, metadata, tensor list) or validate it.
import { analyzeByteSource, initSafetensors } from './core.js';
import { toByteSource } from './byte_source.js';
import { SafetensorsError } from './errors.js';
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
 * Reads the header of a .safetensors file and returns its tensors and metadata, and
 * getTensor() to read tensors. Only the first 8 + N bytes are read here.
 * @throws {SafetensorsError} when the reference loader would reject the file
 */
export async function openSafetensors(input, options = {}) {
  const { signal } = checkOptions(options);
  const source = await toByteSource(input);
  const report = await analyzeByteSource(source, signal);
  if (report.referenceError !== null) {
    const [first] = report.findings;
    throw new SafetensorsError(report.referenceError, first.message, { tensor: first.tensor, findings: report.findings });
  }
  const { dataStart, dtypes } = report;
  let byName = null; // built on the first getTensor: opening stays as cheap as the header parse
  return {
    tensors: report.tensors,
    metadata: report.metadata,
    headerSize: report.headerSize,
    dataStart,
    fileSize: report.fileSize,
    findings: report.findings,
    /**
     * Reads one tensor (or rows of it) into a typed array, streaming only its bytes.
     * @param {string} name
     * @param {{ as?: 'native' | 'float32' | 'raw', rows?: [number, number], signal?: AbortSignal,
     *   onProgress?: (bytesDone: number, bytesTotal: number) => void, into?: ArrayBufferView }} [tensorOptions]
     *   `into`: an array of the result's type to fill (and return a view of) instead of a new one
     */
    async getTensor(name, tensorOptions = {}) {
      checkOptions(tensorOptions);
      byName ??= new Map(report.tensors.map((t) => [t.name, t]));
      const tensor = byName.get(name);
      if (tensor === undefined) throw tensorNotFound(name, report.tensors);
      const plan = planTensorRead(tensor, dataStart, tensorOptions);
      const core = await initSafetensors();
      return decodeTensor(core, source, plan, tensor, dtypes.indexOf(tensor.dtype), tensorOptions);
    },
  };
}

/**
 * Says whether the reference loader accepts the file and what else is worth
 * knowing about it. Never throws for a bad file (only for bad arguments or
 * failed reads). With `scanData: true`, a loadable file's tensors are also read
 * once, chunk by chunk, counting NaN, infinities and all-zero tensors.
 */
export async function validateSafetensors(input, options = {}) {
  const { signal, scanData: wantScan = false } = checkOptions(options);
  if (typeof wantScan !== 'boolean') throw new TypeError('options.scanData must be a boolean');
  const source = await toByteSource(input);
  const report = await analyzeByteSource(source, signal);
  const result = {
    loadable: report.referenceError === null,
    referenceError: report.referenceError,
    findings: report.findings,
    tensors: report.tensors.length,
  };
  if (!wantScan) return result;
  if (!result.loadable) return { ...result, dataScan: null };
  const scan = await scanData(await initSafetensors(), source, report, options);
  return { ...result, findings: [...report.findings, ...scan.findings], dataScan: scan.dataScan };
}
