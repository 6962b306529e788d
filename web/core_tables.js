// The core's fixed tables, read once per loaded module (written by cpp/wasm/core_tables.cpp):
// the dtypes, the reference error kinds and the finding codes. JS keeps no copy of its own.
import { SafetensorsError } from './errors.js';
import { TableReader } from './table_reader.js';

/** The table version this JS reads; the .wasm must be from the same build. */
const VERSION = 2;

/**
 * @param {Uint8Array} bytes
 * @returns {{
 *   dtypes: { name: string, index: number, bits: number, unitBytes: number, unitElements: number, storage: string }[],
 *   dtypeIndex: Map<string, number>,
 *   referenceErrors: (string | null)[], referenceErrorSeverity: string,
 *   findingCodes: { name: string, severity: string }[],
 * }}
 */
export function decodeCoreTables(bytes) {
  const r = new TableReader(bytes);
  const version = r.num();
  if (version !== VERSION) {
    throw new SafetensorsError('InternalError',
      `safetensors-wasm: the .wasm file is from another version of the package (its tables are version ${version}, this code reads ${VERSION}); serve the .wasm that came with this package`);
  }
  const dtypes = r.list((index) => ({ name: r.str(), index, bits: r.num(), unitBytes: r.num(), unitElements: r.num(), storage: r.str() }));
  const referenceErrors = r.list(() => r.str() || null);
  const severities = r.list(() => r.str());
  const referenceErrorSeverity = severities[r.num()];
  const findingCodes = r.list(() => ({ name: r.str(), severity: severities[r.num()] }));
  return { dtypes, dtypeIndex: new Map(dtypes.map((d) => [d.name, d.index])), referenceErrors, referenceErrorSeverity, findingCodes };
}
