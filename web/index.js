// Public API: open a .safetensors file (header, metadata, tensor list) or validate it.
import { analyzeByteSource, initSafetensors } from './core.js';
import { toByteSource } from './byte_source.js';
import { SafetensorsError } from './errors.js';

export { SafetensorsError, initSafetensors };

function checkOptions(options) {
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
  const { signal } = options;
  if (signal !== undefined && !(signal instanceof AbortSignal)) throw new TypeError('options.signal must be an AbortSignal');
  return options;
}

/**
 * Reads the header of a .safetensors file and returns its tensors and metadata.
 * Only the first 8 + N bytes are read, whatever the file's size.
 * @throws {SafetensorsError} when the reference loader would reject the file
 */
export async function openSafetensors(source, options = {}) {
  const { signal } = checkOptions(options);
  const report = await analyzeByteSource(await toByteSource(source), signal);
  if (report.referenceError !== null) {
    const [first] = report.findings;
    throw new SafetensorsError(report.referenceError, first.message, { tensor: first.tensor, findings: report.findings });
  }
  return {
    tensors: report.tensors,
    metadata: report.metadata,
    headerSize: report.headerSize,
    dataStart: report.dataStart,
    fileSize: report.fileSize,
    findings: report.findings,
  };
}

/**
 * Says whether the reference loader accepts the file and what else is worth
 * knowing about it. Never throws for a bad file (only for bad arguments or
 * failed reads).
 */
export async function validateSafetensors(source, options = {}) {
  const { signal } = checkOptions(options);
  const report = await analyzeByteSource(await toByteSource(source), signal);
  return {
    loadable: report.referenceError === null,
    referenceError: report.referenceError,
    findings: report.findings,
    tensors: report.tensors.length,
  };
}
