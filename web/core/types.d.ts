// Types of the codes every part shares: dtypes, the reference's error kinds, finding codes,
// the one error class, and the options of loading the wasm modules. Re-exported by web/index.d.ts.
import type { ValidationReport } from '../file/types.js';

/** The reference loader's error kinds, in the order its checks run. */
export type ReferenceErrorKind =
  | 'HeaderTooSmall'
  | 'HeaderTooLarge'
  | 'InvalidHeaderLength'
  | 'InvalidHeader'
  | 'InvalidHeaderDeserialization'
  | 'InvalidOffset'
  | 'ValidationOverflow'
  | 'MisalignedSlice'
  | 'TensorInvalidInfo'
  | 'MetadataIncompleteBuffer';

/** Element types the reference loader accepts. */
export type Dtype =
  | 'BOOL'
  | 'F4'
  | 'F6_E2M3'
  | 'F6_E3M2'
  | 'U8'
  | 'I8'
  | 'F8_E5M2'
  | 'F8_E4M3'
  | 'F8_E8M0'
  | 'F8_E4M3FNUZ'
  | 'F8_E5M2FNUZ'
  | 'I16'
  | 'U16'
  | 'F16'
  | 'BF16'
  | 'I32'
  | 'U32'
  | 'F32'
  | 'C64'
  | 'F64'
  | 'I64'
  | 'U64';

/** The codes of our findings (README, "Findings"); a reference error kind is the other kind of code. Checked against the core's table by tests/js/documented_codes.test.js. */
export type FindingCode =
  | 'NotSafetensors'
  | 'DuplicateTensorName'
  | 'DuplicateMetadataKey'
  | 'ArrayTensorEntry'
  | 'MapDtype'
  | 'UnknownTensorField'
  | 'HeaderNotPadded'
  | 'MisalignedTensor'
  | 'HugeTensor'
  | 'EmptyTensor'
  | 'ManyScalarTensors'
  | 'UnlabeledIntegerWeights'
  | 'UnknownMetadataKey'
  | 'UnusualFormat'
  | 'LargeMetadataValue'
  | 'LeadingWhitespace'
  | 'OversizedHeader'
  | 'NonFiniteValues'
  | 'AllZeroTensor'
  | 'EmbeddedHashMismatch'
  | 'IndexTensorMissing'
  | 'UnindexedTensor'
  | 'TensorInSeveralShards'
  | 'ShardMissing'
  | 'ShardNotLoadable'
  | 'UnsafeShardName'
  | 'IndexTotalSizeMismatch'
  | 'ShardNotReferenced'
  | 'ComponentMissing'
  | 'HttpError'
  | 'ConfigUnreadable';

/** What a NotSafetensors finding says the file is instead (cpp/analysis/foreign_format.h). Checked against the core's table by tests/js/documented_codes.test.js. */
export type ForeignFormat =
  'git-lfs-pointer' | 'pytorch-zip' | 'pickle' | 'gguf' | 'html' | 'json' | 'png' | 'jpeg' | 'gzip' | 'zip' | 'empty';

export interface Finding {
  /** Stable identifier: a reference error kind or one of ours, e.g. "DuplicateTensorName". */
  code: ReferenceErrorKind | FindingCode | (string & {});
  severity: 'error' | 'warning' | 'info';
  /** A sentence saying what it means and what to do. */
  message: string;
  /** The tensor concerned, when there is one. */
  tensor?: string;
  /** Sharded models: the shard concerned, when there is one. */
  shard?: string;
  /** Diffusers pipelines: the component concerned (its folder name, e.g. "unet"). */
  component?: string;
  /** NotSafetensors: what the file is instead, e.g. "git-lfs-pointer". */
  format?: ForeignFormat;
}

export interface InitOptions {
  /** Where to fetch each .wasm from (called with "safetensors_core.wasm", "safetensors_card.wasm" or "safetensors_pickle.wasm");
   *  default: next to this module (new URL(..., import.meta.url)). */
  locateFile?: (path: string, prefix: string) => string;
  /** The core's .wasm bytes (safetensors_core.wasm), when you load them yourself. */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /** The card module's .wasm bytes (safetensors_card.wasm; loaded by the first describe(), never by hashing). */
  cardWasmBinary?: ArrayBuffer | Uint8Array;
  /** The pickle module's .wasm bytes (safetensors_pickle.wasm; loaded by the first scanPickle()). */
  pickleWasmBinary?: ArrayBuffer | Uint8Array;
}

/**
 * Every `code` a SafetensorsError can have (README, "Errors"): a reference error kind for a
 * rejected file, or one of the package's own.
 */
export type ErrorCode =
  | ReferenceErrorKind
  | 'ReadError'
  | 'TensorNotFound'
  | 'TensorTooLarge'
  | 'UnsupportedConversion'
  | 'OutOfMemory'
  | 'InternalError'
  | 'InitError'
  | 'HttpError'
  | 'RangeNotSupported'
  | 'InvalidIndex'
  | 'ShardMissing'
  | 'ShardNotLoadable'
  | 'UnsafeShardName'
  | 'InvalidTensor'
  | 'InvalidMetadata'
  | 'UnsupportedSource'
  | 'WriteError'
  | 'UnexpectedResponse'
  | 'DeviceLost'
  | 'UnsafeCheckpoint'
  | 'CorruptStorage';

export class SafetensorsError extends Error {
  constructor(
    code: ErrorCode,
    message: string,
    details?: { tensor?: string; findings?: Finding[]; report?: ValidationReport; cause?: unknown },
  );
  readonly name: 'SafetensorsError';
  readonly code: ErrorCode;
  readonly tensor?: string;
  readonly findings: Finding[];
  /** When opening a file the reference rejects: the report of that same read. */
  readonly report?: ValidationReport;
  /** HttpError: the HTTP status the server answered. */
  readonly status?: number;
}
