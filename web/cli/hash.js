// safetensors-wasm hash: each FILE's SHA-256 as sha256sum prints it, the other hashes of
// model sites, and the check of every hash its metadata claims.
import { openSafetensors, validateSafetensors, SafetensorsError } from '../index.js';
import { hashLines } from './text.js';
import { unreadable, withFile } from './files.js';
import { parseArgs, usage } from './usage.js';

// A file's hashes: with --tensors through the opened file (a rejected file gets the rest).
async function hashPath(path, tensors) {
  try {
    return await withFile(path, async (handle) => {
      if (tensors) {
        try {
          const st = await openSafetensors(handle);
          return { file: path, loadable: true, ...(await st.hash({ tensors: true })) };
        } catch (error) {
          if (!(error instanceof SafetensorsError && error.report)) throw error;
        }
      }
      const report = await validateSafetensors(handle, { hash: true });
      return { file: path, loadable: report.loadable, ...report.hashes };
    });
  } catch (error) {
    return { file: path, error: unreadable(path, error).findings[0].message };
  }
}

export async function hash(args) {
  const parsed = parseArgs(args, ['--json', '--tensors']);
  if (!parsed) return usage();
  const results = [];
  for (const file of parsed.files) results.push(await hashPath(file, parsed.has('--tensors')));
  if (parsed.has('--json')) {
    process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  } else {
    for (const r of results) {
      if (r.error) {
        console.error(r.error);
        continue;
      }
      console.log(`${r.sha256}  ${r.file}`);
      for (const line of hashLines(r)) console.log(`  ${line}`);
    }
  }
  return results.every((r) => !r.error && r.checks.every((c) => c.match)) ? 0 : 1;
}
