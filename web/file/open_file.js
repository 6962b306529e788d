// openSafetensors: a file's header read and analysed, and the SafetensorsFile handle over it,
// put together from the methods of its parts (reads, card and hashes, edits).
import { SafetensorsError } from '../core/errors.js';
import { cardOnce } from '../card/model_card.js';
import { initSafetensors, loadCardModule } from '../core/modules.js';
import { configBesidePath, configOnce, configReader } from '../sharded/model_config.js';
import { checkBoolean, checkOptions } from './options.js';
import { readSource, verdictOf } from './validate.js';
import { tensorReads } from './tensor_reads.js';
import { cardAndHashes } from './card_and_hashes.js';
import { edits } from './edits.js';
import { setDataReader } from './data_range.js';
import { untilAborted } from '../core/abort.js';

/**
 * What the methods of one opened file share.
 * @typedef {{
 *   input: import('../index.js').SafetensorsSource,
 *   source: Awaited<ReturnType<typeof readSource>>['source'],
 *   header: Awaited<ReturnType<typeof readSource>>['header'],
 *   byName: () => Map<string, number>,
 *   cardOf: () => Promise<import('../card/model_card.js').BuiltCard>,
 *   readConfig: (signal?: AbortSignal) => Promise<unknown>,
 * }} OpenedFile
 *   byName: tensor name -> index, built on first use (opening stays as cheap as the header
 *   parse); cardOf: the card's JSON and its module tree's builder, built on first use and kept;
 *   readConfig: the parsed config.json beside the weights (null: none), read on first use
 */

/**
 * Reads the header of a .safetensors file and returns its tensors and metadata, its report,
 * and the methods that read its tensors. Only the first 8 + N bytes are read here. Without
 * `describable`, the header table (the card's input, about the size of the header again) is
 * let go at once: a sharded model's shards, whose card is the model's.
 * @param {import('../index.js').SafetensorsSource} input
 * @param {import('../index.js').OpenOptions} options
 * @param {boolean} describable
 * @param {(bytes: number) => Promise<void>} [admitHeader] awaited before the header's bytes are read
 *   (a sharded model's limit on bytes in flight)
 * @returns {Promise<import('../index.js').SafetensorsFile>}
 * @throws {SafetensorsError} when the reference loader would reject the file (with `.report`)
 */
export async function openFile(input, options, describable, admitHeader) {
  checkOptions(options);
  checkBoolean(options, 'preloadCard');
  // The card module loads beside the core and the header (a failure is let go: describe()
  // tries again and tells of it).
  if (options.preloadCard) loadCardModule();
  // options.config, or in Node the config.json beside a path; checked before anything is read.
  // A shard has none: its model reads the config.json beside the shards.
  const config = !describable
    ? undefined
    : options.config === undefined
      ? configBesidePath(input)
      : configReader(options.config, options);
  const { source, header } = await readSource(input, options, admitHeader);
  const report = verdictOf(header);
  if (report.referenceError !== null) {
    const [first] = header.findings;
    throw new SafetensorsError(report.referenceError, first.message, {
      tensor: first.tensor,
      findings: header.findings,
      report,
    });
  }
  const { tensors } = header;
  let byIndex = null;
  // As opened: the card is of the header, whatever happens to `tensors`. `header` lives as long
  // as the file; the table (about the size of the header) only until the card has its module tree.
  const card = describable ? cardOnce(header.table, tensors.length) : null;
  header.table = /** @type {any} */ (null);
  const core = await initSafetensors();
  /** @type {OpenedFile} */
  const opened = {
    input,
    source,
    header,
    byName: () => (byIndex ??= new Map(tensors.map((t, i) => [t.name, i]))),
    async cardOf() {
      if (card === null)
        throw new SafetensorsError(
          'InternalError',
          'this file was opened as a shard of a sharded model: describe the model instead',
        );
      return card();
    },
    // A config.json that cannot be read or parsed: a finding of the file, told once.
    readConfig: configOnce(config, (message) =>
      header.findings.push({ code: 'ConfigUnreadable', severity: core.severity('ConfigUnreadable'), message }),
    ),
  };
  /** @type {import('../index.js').SafetensorsFile} */
  const file = {
    tensors,
    metadata: header.metadata,
    headerSize: header.headerSize,
    dataStart: header.dataStart,
    fileSize: header.fileSize,
    findings: header.findings,
    report,
    ...tensorReads(opened),
    ...cardAndHashes(opened, () => file),
    ...edits(opened, () => file),
    // Loaded on the first call: pages that never upload do not download it.
    toGPU: async (device, gpuOptions) => (await import('../gpu/to_gpu.js')).toGPU(file, device, gpuOptions),
  };
  setDataReader(file, (begin, end, signal) => untilAborted(source.read(header.dataStart + begin, end - begin), signal));
  return file;
}
