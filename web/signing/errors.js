// Why a signature was not verified: a typed reason carried to the result's `error`, never a
// crash. Bad arguments stay TypeErrors (the caller's mistake, not the signature's).

/** The reason codes (README, "Verifying model signatures"). */
export const REASONS = /** @type {const} */ ([
  'MalformedBundle',
  'UnsupportedBundle',
  'UnsupportedPredicate',
  'InconsistentManifest',
  'UnsupportedHash',
  'KeyMismatch',
  'BadSignature',
  'UntrustedCertificate',
  'IdentityMismatch',
  'ModelMismatch',
  'ReadError',
]);

/** A verification that failed for a stated reason (caught by verifyModelSignature). */
export class NotVerified extends Error {
  /**
   * @param {import('./types.js').NotVerifiedCode} code
   * @param {string} message
   */
  constructor(code, message) {
    super(message);
    this.name = 'NotVerified';
    this.code = code;
  }
}

/**
 * Throws a NotVerified unless `condition` holds.
 * @param {unknown} condition
 * @param {import('./types.js').NotVerifiedCode} code
 * @param {string} message
 * @returns {asserts condition}
 */
export function expect(condition, code, message) {
  if (!condition) throw new NotVerified(code, message);
}
