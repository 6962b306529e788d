// The core's fixed tables, read once per loaded module (written by cpp/wasm/core_tables.cpp):
// the dtypes, the reference error kinds, the finding codes, the header limit and the formats
// NotSafetensors names. JS keeps no copy of its own.
import { SafetensorsError } from './errors.js';
import { TableReader } from './table_reader.js';

/** @typedef {import('../index.js').Dtype} Dtype */
/** @typedef {import('../index.js').ReferenceErrorKind} ReferenceErrorKind */
/** @typedef {import('../index.js').FindingCode} FindingCode */
/** @typedef {import('../index.js').ForeignFormat} ForeignFormat */
/** @typedef {import('../index.js').Finding['severity']} Severity */
/**
 * One row of the core's dtype table: `bits` per element; a unit of `unitBytes` holds
 * `unitElements` (an F4 byte holds two); `storage`: the typed array, without "Array", whose
 * elements the bytes are ("Float32", ...), or how they become values ("narrow-float", "bool", "packed").
 * @typedef {{ name: Dtype, index: number, bits: number, unitBytes: number, unitElements: number, storage: string }} DtypeRow
 */
/** @typedef {ReturnType<typeof decodeCoreTables>} CoreTables */

/** The table version this JS reads; the .wasm must be from the same build. */
const VERSION = 4;

/**
 * @param {Uint8Array} bytes
 * @returns {{
 *   dtypes: DtypeRow[],
 *   referenceErrors: (ReferenceErrorKind | null)[], referenceErrorSeverity: Severity,
 *   findingCodes: { name: FindingCode, severity: Severity }[], findingSeverity: Map<FindingCode, Severity>,
 *   maxHeaderBytes: number, foreignFormats: { name: ForeignFormat, label: string }[],
 * }}
 * The names are the core's: tests/js/documented_codes.test.js checks index.d.ts lists them all.
 */
export function decodeCoreTables(bytes) {
  const r = new TableReader(bytes);
  const version = r.num();
  if (version !== VERSION) {
    throw new SafetensorsError(
      'InternalError',
      `safetensors-wasm: the .wasm file is from another version of the package (its tables are version ${version}, this code reads ${VERSION}); serve the .wasm that came with this package`,
    );
  }
  const dtypes = r.list((index) => ({
    name: /** @type {Dtype} */ (r.str()),
    index,
    bits: r.num(),
    unitBytes: r.num(),
    unitElements: r.num(),
    storage: r.str(),
  }));
  const referenceErrors = r.list(() => /** @type {ReferenceErrorKind | null} */ (r.str() || null));
  const severities = r.list(() => /** @type {Severity} */ (r.str()));
  const referenceErrorSeverity = severities[r.num()];
  const findingCodes = r.list(() => ({ name: /** @type {FindingCode} */ (r.str()), severity: severities[r.num()] }));
  const findingSeverity = new Map(findingCodes.map((c) => [c.name, c.severity]));
  const maxHeaderBytes = r.num(); // the reference's MAX_HEADER_SIZE (cpp/format/header_prefix.h)
  // What NotSafetensors findings name (cpp/analysis/foreign_format.h): name and plain words.
  const foreignFormats = r.list(() => ({ name: /** @type {ForeignFormat} */ (r.str()), label: r.str() }));
  return {
    dtypes,
    referenceErrors,
    referenceErrorSeverity,
    findingCodes,
    findingSeverity,
    maxHeaderBytes,
    foreignFormats,
  };
}
