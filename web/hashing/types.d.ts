// Types of hashing a file and checking the hashes its metadata claims. Re-exported by web/index.d.ts.
import type { Finding } from '../core/types.js';

export interface HashOptions {
  /** SHA-256 of the whole file, AutoV2 and AutoV1 (default true). */
  file?: boolean;
  /** SHA-256 of the data section [8+N, EOF) and AutoV3 (default true). */
  data?: boolean;
  /** SHA-256 of each tensor's bytes: true for all, or the names of some (default false). */
  tensors?: boolean | string[];
  signal?: AbortSignal;
  /** Called after each chunk with bytes read so far and the total; the last call has done === total. */
  onProgress?: (bytesDone: number, bytesTotal: number) => void;
}

/** Lowercase hex; null where not asked for (or, for AutoV1, where the file is too short). */
export interface FileHashes {
  /** SHA-256 of the whole file. */
  sha256: string | null;
  /** The first 10 hex digits of sha256 (AUTOMATIC1111's and Civitai's AutoV2). */
  autoV2: string | null;
  /** SHA-256 of the 64 KiB at 1 MiB, first 8 hex digits; null for files shorter than 1 MiB + 64 KiB. */
  autoV1: string | null;
  /** SHA-256 of bytes [8+N, EOF): kohya's sshs_model_hash, ModelSpec's hash_sha256 (without 0x). */
  dataSha256: string | null;
  /** The first 12 hex digits of dataSha256 (Civitai's AutoV3, the "addnet" hash). */
  autoV3: string | null;
  /** Only when asked: tensor name -> SHA-256 of its bytes. */
  tensors?: Record<string, string>;
}

/** One hash the metadata claims, against the computed one (as many leading digits as claimed). */
export interface HashCheck {
  key: string;
  claimed: string;
  actual: string;
  match: boolean;
}

export interface HashResult extends FileHashes {
  /** Every claim that can be compared with what was hashed (base-model hashes cannot). */
  checks: HashCheck[];
  /** An EmbeddedHashMismatch warning per failed check. */
  findings: Finding[];
}
