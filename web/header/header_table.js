// Reader for the packed report written by cpp/wasm/header_table.cpp (sequence described there).
import { TableReader, readFindings, withTensor } from '../core/table_reader.js';

/**
 * Decodes a packed report (a copy, not a view on the wasm heap).
 * @param {Uint8Array} bytes
 * @param {ReturnType<typeof import('../core/tables.js').decodeCoreTables>} tables
 */
export function decodeHeaderTable(bytes, tables) {
  const r = new TableReader(bytes);
  const referenceError = tables.referenceErrors[r.num()];
  // The verdict is the first finding when the reference rejects the file.
  const rejection =
    referenceError === null
      ? []
      : [withTensor(r, { code: referenceError, severity: tables.referenceErrorSeverity, message: r.str() })];
  const fileSize = r.num();
  const headerSize = r.num();
  const dataStart = r.num();
  const findings = [...rejection, ...readFindings(r, tables)];

  const metadataCount = r.num();
  let metadata = null;
  if (metadataCount >= 0) {
    // fromEntries defines own properties, so keys such as "__proto__" stay plain data.
    const entries = new Array(metadataCount);
    for (let i = 0; i < metadataCount; i++) entries[i] = [r.str(), r.str()];
    metadata = Object.fromEntries(entries);
  }
  // The hashes the metadata claims (cpp/analysis/embedded_hashes.h): what hash() checks.
  /** @type {import('../index.js').ModelCard['embeddedHashes']} */
  const embeddedHashes = r.list(() => ({ key: r.str(), value: r.str(), covers: /** @type {any} */ (r.str()) }));

  const count = r.num();
  const tensorsAt = r.at;
  /** @type {{ tensors: import('../index.js').TensorInfo[], dtypeIndex: Uint8Array } | null} */
  let decoded = null;
  // Decoded on the first read (a plain validate needs only the count: a million tensors' objects
  // cost it as much as its analysis), once.
  const tensorList = () => (decoded ??= decodeTensors(r, tensorsAt, count, tables));
  // `table` stays for the model card's module (web/card/model_card.js), which reads it back.
  const table = bytes;
  return {
    referenceError,
    fileSize,
    headerSize,
    dataStart,
    findings,
    metadata,
    embeddedHashes,
    tensorCount: count,
    /** In data order. */
    get tensors() {
      return tensorList().tensors;
    },
    /** Each tensor's dtype index, kept beside the public objects: no name lookups per read. */
    get dtypeIndex() {
      return tensorList().dtypeIndex;
    },
    table,
  };
}

/**
 * The tensors of a table, from `at` (after the count).
 * @param {TableReader} r
 * @param {number} at
 * @param {number} count
 * @param {ReturnType<typeof import('../core/tables.js').decodeCoreTables>} tables
 */
function decodeTensors(r, at, count, tables) {
  r.at = at;
  const tensors = new Array(count);
  const dtypeIndex = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    const name = r.str();
    const dtype = r.num();
    const shape = new Array(r.num());
    for (let d = 0; d < shape.length; d++) shape[d] = r.num();
    const begin = r.num();
    const end = r.num();
    /** @type {import('../index.js').TensorInfo} */
    const tensor = {
      name,
      dtype: tables.dtypes[dtype].name,
      shape,
      dataOffsets: [begin, end],
      byteLength: end - begin,
    };
    if (r.num() === 1) tensor.exactShape = shape.map(() => BigInt(r.str()));
    tensors[i] = tensor;
    dtypeIndex[i] = dtype;
  }
  return { tensors, dtypeIndex };
}
