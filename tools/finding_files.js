// One crafted file per finding code, written to a folder: shared by the CLI test
// (validate --json), the demo test (the findings list) and the fuzzers' seeds, so that
// every finding is shown to work end to end on a real file.
import { createHash } from 'node:crypto';
import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { rawFile, writeSafetensors } from './write_safetensors.js';

const u8Entry = (name, begin, end, extra = '') =>
  `${JSON.stringify(name)}:{"dtype":"U8","shape":[${end - begin}],"data_offsets":[${begin},${end}]${extra}}`;

// Header text padded with spaces so that the data starts at a multiple of 8 (no HeaderNotPadded).
function padded(headerText, data = 0) {
  const bytes = new TextEncoder().encode(headerText).byteLength;
  return rawFile(headerText + ' '.repeat((8 - ((8 + bytes) % 8)) % 8), data);
}

const f32 = (...values) => new Uint8Array(new Float32Array(values).buffer);
const HUGE = 2 ** 31 + 8;

/**
 * code -> { file: Uint8Array | { header: Uint8Array, size: number } (sparse), scan?: true, hash?: true, loadable? }
 * scan / hash: the finding needs the data scan / hashing
 */
function cases() {
  const scalars = Array.from(
    { length: 1000 },
    (_, i) => `"s${i}":{"dtype":"U8","shape":[],"data_offsets":[${i},${i + 1}]}`,
  );
  const base = writeSafetensors([{ name: 'w', dtype: 'F32', shape: [2], data: f32(1, 2) }]);
  return {
    DuplicateTensorName: { file: padded(`{${u8Entry('w', 0, 2)},${u8Entry('w', 0, 1)}}`, 1) },
    DuplicateMetadataKey: { file: padded('{"__metadata__":{"format":"pt","format":"pt"}}') },
    ArrayTensorEntry: { file: padded('{"a":["U8",[1],[0,1]]}', 1) },
    MapDtype: { file: padded('{"a":{"dtype":{"U8":null},"shape":[1],"data_offsets":[0,1]}}', 1) },
    UnknownTensorField: { file: padded(`{${u8Entry('a', 0, 1, ',"note":"x"')}}`, 1) },
    HeaderNotPadded: { file: rawFile(`{${u8Entry('a', 0, 3)}}`, 3) },
    MisalignedTensor: {
      file: padded(`{${u8Entry('a', 0, 1)},"w":{"dtype":"F32","shape":[1],"data_offsets":[1,5]}}`, 5),
    },
    HugeTensor: {
      file: { header: padded(`{"big":{"dtype":"F16","shape":[${HUGE / 2}],"data_offsets":[0,${HUGE}]}}`), size: HUGE },
    },
    EmptyTensor: { file: padded(`{${u8Entry('a', 0, 1)},"e":{"dtype":"F32","shape":[4,0],"data_offsets":[1,1]}}`, 1) },
    ManyScalarTensors: { file: padded(`{${scalars.join(',')}}`, 1000) },
    UnlabeledIntegerWeights: { file: padded(`{"fc.weight":{"dtype":"I8","shape":[2,2],"data_offsets":[0,4]}}`, 4) },
    UnknownMetadataKey: { file: padded('{"__metadata__":{"format":"pt","my_notes":"hello"}}') },
    UnusualFormat: { file: padded('{"__metadata__":{"format":"pytorch"}}') },
    LargeMetadataValue: {
      file: padded(`{"__metadata__":{"ssmd_cover_images":"[\\"iVBORw0KGgo${'A'.repeat(70000)}\\"]"}}`),
    },
    LeadingWhitespace: { file: padded('\n  {}') },
    OversizedHeader: { file: padded(`{}${' '.repeat(8192)}`) },
    MetadataIncompleteBuffer: { file: new Uint8Array([...base, 0x50, 0x4b, 3, 4]), loadable: false },
    // What a clone without Git LFS holds instead of `base` (git-lfs/git-lfs docs/spec.md).
    NotSafetensors: {
      file: new TextEncoder().encode(
        `version https://git-lfs.github.com/spec/v1\noid sha256:${createHash('sha256').update(base).digest('hex')}\nsize ${base.byteLength}\n`,
      ),
      loadable: false,
    },
    NonFiniteValues: {
      file: writeSafetensors([{ name: 'w', dtype: 'F32', shape: [3], data: f32(1, NaN, -Infinity) }]),
      scan: true,
    },
    AllZeroTensor: {
      file: writeSafetensors([{ name: 'b', dtype: 'F32', shape: [3], data: f32(0, -0, 0) }]),
      scan: true,
    },
    EmbeddedHashMismatch: {
      file: writeSafetensors([{ name: 'w', dtype: 'F32', shape: [2], data: f32(1, 2) }], {
        sshs_model_hash: '0'.repeat(64),
      }),
      hash: true,
    },
  };
}

/**
 * Writes every case to `dir` and returns [{ code, path, scan, hash, loadable }].
 * The HugeTensor file is sparse: 2 GiB of holes after its header; `{ sparse: false }` leaves it out.
 */
export async function writeFindingFiles(dir, { sparse = true } = {}) {
  const out = [];
  for (const [code, c] of Object.entries(cases())) {
    if (!sparse && !(c.file instanceof Uint8Array)) continue;
    const path = join(dir, `${code}.safetensors`);
    if (c.file instanceof Uint8Array) {
      await writeFile(path, c.file);
    } else {
      const handle = await open(path, 'w');
      await handle.write(c.file.header, 0, c.file.header.byteLength, 0);
      await handle.truncate(c.file.header.byteLength + c.file.size);
      await handle.close();
    }
    out.push({ code, path, scan: c.scan === true, hash: c.hash === true, loadable: c.loadable !== false });
  }
  return out;
}

// `node tools/finding_files.js DIR` writes the non-sparse cases (the fuzzers' seeds).
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  await writeFindingFiles(process.argv[2], { sparse: false });
}
