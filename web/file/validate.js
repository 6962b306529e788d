// validateSafetensors' work: the reference loader's verdict and the findings of a file, with its
// data scan and hashes in the same read when asked for. Never throws for a bad file, nor for
// a URL that answers an error status (its verdict says so, with the status). The card and the
// scan/hash code come in as `parts`: the package's validateSafetensors (./validate_file.js)
// imports them, the CLI (web/cli/validate.js) loads them only when asked for. No import()
// here: where a module the open path imports statically is also imported with import(),
// Rolldown (Vite 8) splits the open path into a chunk per module (issue 39).
import { initSafetensors } from '../core/modules.js';
import { SafetensorsError } from '../core/errors.js';
import { toByteSource } from '../source/byte_source.js';
import { readHeader } from '../header/read_header.js';
import { checkBoolean, checkOptions } from './options.js';

/**
 * The verdict part of a decoded header: what validateSafetensors returns.
 * @param {ReturnType<typeof import('../header/header_table.js').decodeHeaderTable>} header
 * @returns {import('../index.js').ValidationReport}
 */
export function verdictOf(header) {
  return {
    loadable: header.referenceError === null,
    referenceError: header.referenceError,
    findings: header.findings,
    tensors: header.tensorCount,
  };
}

/**
 * The verdict on a URL that answered an error status: not loadable, nothing read, the status.
 * @param {SafetensorsError} error an HttpError (it has `.status`)
 * @returns {Promise<import('../index.js').ValidationReport>}
 */
async function unreachable(error) {
  const core = await initSafetensors();
  const finding = { code: 'HttpError', severity: core.severity('HttpError'), message: error.message };
  return { loadable: false, referenceError: null, findings: [finding], tensors: 0, status: error.status };
}

/**
 * A source read up to the end of its header, and the core's analysis of it.
 * @param {import('../index.js').SafetensorsSource} input
 * @param {{ signal?: AbortSignal }} options
 * @param {(bytes: number) => Promise<void>} [admitHeader] see readHeader
 */
export async function readSource(input, options, admitHeader) {
  const core = initSafetensors(); // loads while the header is read
  const source = await toByteSource(input, options);
  return { source, header: await readHeader(core, source, options.signal, admitHeader) };
}

/**
 * Where the data section starts, when the header's length is readable and fits the file.
 * @param {{ dataStart: number, fileSize: number }} header
 */
function readableDataStart(header) {
  return header.dataStart >= 8 && header.dataStart <= header.fileSize ? header.dataStart : null;
}

/**
 * The card of a header as read, loadable or not, and a note when it is null or built from part
 * of the header (a header that could not be read has no tensors).
 * @param {ReturnType<typeof import('../header/header_table.js').decodeHeaderTable>} header
 * @param {ValidateParts} parts
 * @returns {Promise<{ card: import('../index.js').ModelCard | null, cardNote?: string }>}
 */
async function cardOf(header, parts) {
  const { table, tensorCount, referenceError } = header;
  const why = referenceError ? ` (${referenceError})` : '';
  if (!table || tensorCount === 0) {
    const cause = referenceError
      ? `the file is rejected${why} and no tensor of its header was read`
      : 'the header lists no tensors';
    return { card: null, cardNote: `no model card: ${cause}` };
  }
  const { buildCard, cardObject } = await parts.card();
  const built = await buildCard(table, tensorCount);
  const card = cardObject(built);
  const n = built.sizedFromShapes;
  if (n === 0) return { card };
  const which =
    n === tensorCount ? (n === 1 ? 'its one tensor' : `all ${n} tensors`) : `${n} of ${tensorCount} tensors`;
  return {
    card,
    cardNote: `built from the tensors' names, dtypes and shapes only: the data_offsets of ${which} are invalid${why}, so bytes are counted from dtype and shape`,
  };
}

/**
 * The code validate uses beyond the header's: the card's and the data scan's and hashes'.
 * @typedef {{
 *   card(): Promise<{ buildCard: typeof import('../card/model_card.js').buildCard, cardObject: typeof import('../card/card_table.js').cardObject }>,
 *   scan(): Promise<{ scanData: typeof import('../tensors/data_scan.js').scanData, hashSource: typeof import('../hashing/hash_source.js').hashSource }>,
 * }} ValidateParts
 */

/**
 * Says whether the reference loader accepts the file and what else is worth knowing about
 * it. With `scanData: true`, a loadable file's tensors are also read once, chunk by chunk,
 * counting NaN, infinities and all-zero tensors; with `hash: true`, the file is hashed (and
 * its claims checked) in that same read. With `describe: true`, the report also has the model
 * card of the header as read, loadable or not (a file cut short whose header is whole).
 * @param {import('../index.js').SafetensorsSource} input
 * @param {import('../index.js').ValidateOptions} options
 * @param {ValidateParts} parts
 * @returns {Promise<import('../index.js').ValidationReport>}
 */
export async function validateWith(input, options, parts) {
  const { scanData: wantScan = false, hash: wantHash = false, describe = false } = checkOptions(options);
  checkBoolean(options, 'scanData');
  checkBoolean(options, 'hash');
  checkBoolean(options, 'describe');
  let read;
  try {
    read = await readSource(input, options);
  } catch (error) {
    if (error instanceof SafetensorsError && error.code === 'HttpError') return unreachable(error);
    throw error;
  }
  const { source, header } = read;
  const result = verdictOf(header);
  if (describe) Object.assign(result, await cardOf(header, parts));
  if (!wantScan && !wantHash) return result;
  const [core, { scanData, hashSource }] = await Promise.all([initSafetensors(), parts.scan()]);
  const scanning = wantScan && result.loadable;
  let scan = null;
  let hashes = null;
  if (wantHash) {
    const plan = { size: header.fileSize, dataStart: readableDataStart(header), file: true, data: true, tensors: null };
    // The metadata's hash claims, from the core's analysis (checked only on a loadable file).
    const claims = result.loadable ? header.embeddedHashes : [];
    const scanWith = scanning
      ? async (/** @type {any} */ pass) => {
          scan = await scanData(core, source, header, options, pass);
        }
      : null;
    hashes = await hashSource(core, source, plan, claims, options, scanWith);
  } else if (scanning) {
    scan = await scanData(core, source, header, options);
  }
  /** @type {import('../index.js').ValidationReport} */
  const out = { ...result, findings: [...header.findings, ...(scan?.findings ?? []), ...(hashes?.findings ?? [])] };
  if (wantScan) out.dataScan = scan?.dataScan ?? null;
  if (hashes) out.hashes = hashes;
  return out;
}
