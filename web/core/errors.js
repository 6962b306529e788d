// The one error class of the package: a stable `.code` plus a message for people.

/**
 * Every rejection of the public API that is not a bad argument (TypeError, RangeError) or
 * an abort (the signal's reason) is one of these. `code` is a reference error kind for a
 * file the reference loader rejects, or one of the package's codes (README, "Errors").
 */
export class SafetensorsError extends Error {
  /**
   * @param {import('../index.js').ErrorCode} code stable identifier (README, "Errors")
   * @param {string} message a sentence saying what is wrong and what to do
   * @param {{ tensor?: string, findings?: import('../index.js').Finding[], report?: import('../index.js').ValidationReport, status?: number, cause?: unknown }} [details]
   */
  constructor(code, message, details = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'SafetensorsError';
    this.code = code;
    if (details.tensor !== undefined) this.tensor = details.tensor;
    this.findings = details.findings ?? [];
    if (details.report !== undefined) this.report = details.report;
    if (details.status !== undefined) this.status = details.status;
  }
}

/**
 * What went wrong, in a few words, from anything thrown.
 * @param {unknown} cause
 */
export function errorText(cause) {
  return cause instanceof Error ? cause.message : String(cause);
}

/**
 * A failed read of the source, with what failed as the cause.
 * @param {string} message
 * @param {unknown} [cause]
 */
export function readError(message, cause) {
  return new SafetensorsError('ReadError', message, { cause });
}

/**
 * getTensor's error for a name that is not there, with a few names that are.
 * @param {string} name
 * @param {{ name: string }[]} tensors
 * @param {string} [where] what was searched, for the message
 */
export function tensorNotFound(name, tensors, where = 'this file') {
  const some = tensors
    .slice(0, 3)
    .map((t) => JSON.stringify(t.name))
    .join(', ');
  const has = tensors.length === 0 ? 'it has no tensors' : `it has ${tensors.length}, e.g. ${some}`;
  return new SafetensorsError('TensorNotFound', `no tensor named ${JSON.stringify(name)} in ${where}; ${has}`, {
    tensor: name,
  });
}
