// The types of scanPickle (web/pickle/scan_pickle.js).

/** How safe a global is: `safe` when torch.load(weights_only=True) accepts it, `unsafe` when a
 *  public scanner (picklescan, modelscan) or torch's own blocklist lists it, `unknown` otherwise. */
export type GlobalSafety = 'safe' | 'unknown' | 'unsafe';

/** What the file is. */
export type PickleFormat = 'pytorch-zip' | 'pytorch-legacy' | 'pickle' | 'npy' | 'zip' | 'not-pickle';

/** One global (an importable name) the file's pickles name, counted over the file. */
export interface PickleGlobal {
  /** e.g. "torch._utils" */
  module: string;
  /** e.g. "_rebuild_tensor_v2" */
  name: string;
  safety: GlobalSafety;
  /** occurrences in all the file's pickles */
  count: number;
}

/** Something the scan found: a limit hit, an unreadable record, an evasion. */
export interface PickleFinding {
  /** stable, e.g. "data-after-stop" */
  code: string;
  /** plain words */
  message: string;
  /** the pickle or record ("" for the file) */
  where: string;
}

/** scanPickle's result. */
export interface PickleScan {
  /** The file's name when the source has one (File, path, URL), else "". */
  file: string;
  format: PickleFormat;
  /** `unsafe` when any global is unsafe; else `unknown` when any is unknown or anything was
   *  found; else `safe`. */
  verdict: GlobalSafety;
  globals: PickleGlobal[];
  findings: PickleFinding[];
}
