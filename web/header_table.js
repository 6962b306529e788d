// Reader for the packed report written by cpp/header_table.cpp (layout described there).

const SEVERITIES = ['error', 'warning', 'info'];
const VERSION = 1;
const decoder = new TextDecoder();

/**
 * Decodes a packed report (a copy, not a view on the wasm heap).
 * @param {Uint8Array} bytes
 */
export function decodeHeaderTable(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint32(0, true);
  const textBytes = view.getUint32(4, true);
  const numbers = new Float64Array(bytes.buffer, bytes.byteOffset + 8, count);
  const text = decoder.decode(bytes.subarray(8 + count * 8, 8 + count * 8 + textBytes));
  let at = 0;
  const num = () => numbers[at++];
  const str = () => {
    const start = numbers[at];
    const end = numbers[at + 1];
    at += 2;
    return text.slice(start, end);
  };

  if (num() !== VERSION) throw new Error('safetensors-wasm: the .wasm does not match this JS version');
  const dtypes = new Array(num());
  for (let i = 0; i < dtypes.length; i++) dtypes[i] = str();

  const referenceError = str() || null;
  const fileSize = num();
  const headerSize = num();
  const dataStart = num();
  const headerParsed = num() === 1;

  const findings = new Array(num());
  for (let i = 0; i < findings.length; i++) {
    const code = str();
    const severity = SEVERITIES[num()];
    const message = str();
    findings[i] = num() === 1 ? { code, severity, message, tensor: str() } : { code, severity, message };
  }

  const metadataCount = num();
  let metadata = null;
  if (metadataCount >= 0) {
    // fromEntries defines own properties, so keys such as "__proto__" stay plain data.
    const entries = new Array(metadataCount);
    for (let i = 0; i < metadataCount; i++) entries[i] = [str(), str()];
    metadata = Object.fromEntries(entries);
  }

  const tensors = new Array(num());
  for (let i = 0; i < tensors.length; i++) {
    const name = str();
    const dtype = dtypes[num()];
    const shape = new Array(num());
    for (let d = 0; d < shape.length; d++) shape[d] = num();
    const begin = num();
    const end = num();
    const tensor = { name, dtype, shape, dataOffsets: [begin, end], byteLength: end - begin };
    if (num() === 1) tensor.exactShape = shape.map(() => BigInt(str()));
    tensors[i] = tensor;
  }
  return { dtypes, referenceError, fileSize, headerSize, dataStart, headerParsed, findings, metadata, tensors };
}
