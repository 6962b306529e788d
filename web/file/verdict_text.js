// The verdict in plain words, shared by the CLI and the demo: loadable, or not loadable with the
// reference's error kind and, when the file is another format altogether, what it is.
import { loadedCore } from '../core/modules.js';

/**
 * `loadable`, `not loadable: <the reference's error kind>`, and for a file that is not
 * safetensors at all `…; this is a Git LFS pointer, not a safetensors file` (the format's words
 * come from the core's table, cpp/analysis/foreign_format.h).
 * @param {{ loadable: boolean, referenceError: string | null, findings?: import('../index.js').Finding[] }} report
 */
export function verdictText(report) {
  if (report.loadable) return 'loadable';
  const verdict = `not loadable${report.referenceError ? `: ${report.referenceError}` : ''}`;
  const format = report.findings?.find((f) => f.code === 'NotSafetensors')?.format;
  if (format === undefined) return verdict;
  const label = loadedCore()?.tables.foreignFormats.find((f) => f.name === format)?.label ?? format;
  return `${verdict}; this is ${label}, not a safetensors file`;
}
