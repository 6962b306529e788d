// The one error class of the package: a stable `.code` plus a message for people.

/**
 * Thrown for a file the reference loader rejects (`code` is the reference's error
 * kind, e.g. "MetadataIncompleteBuffer") and for failed reads (`code` "ReadError").
 */
export class SafetensorsError extends Error {
  /**
   * @param {string} code stable identifier
   * @param {string} message a sentence saying what is wrong and what to do
   * @param {{ tensor?: string, findings?: object[], cause?: unknown }} [details]
   */
  constructor(code, message, details = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'SafetensorsError';
    this.code = code;
    if (details.tensor !== undefined) this.tensor = details.tensor;
    this.findings = details.findings ?? [];
  }
}

/** Rejects with the signal's reason (an AbortError DOMException by default) when aborted. */
export function throwIfAborted(signal) {
  if (signal?.aborted) {
    throw signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
  }
}
