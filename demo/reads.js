// The reads behind buttons: "Compute hashes" and "Scan tensor data" (of a file, or of each
// shard of a sharded model in turn), and the preview of a tensor's first values.
import { validateSafetensors } from '../web/index.js';
import { showHashes, showShardHashes } from './card_panel.js';
import { showFindings, showScanResults, state } from './page.js';
import { $, formatBytes, plural, shown } from './text.js';

const PREVIEW_ELEMENTS = 4096;
const MAX_PREVIEW_ROW = 1 << 24; // a row larger than this is not read for a preview

/**
 * A read of the whole file behind a button (scan, hash): the button becomes Stop (a second
 * click aborts), a progress bar follows it, and `status` gets what `work` returns or why it
 * stopped. `what` names the read in those messages; `state` is the page's while it runs.
 */
async function longRead(name, { button, bar, status, label, what, pageState }, work) {
  if (state.running[name]) {
    state.running[name].abort();
    return;
  }
  const controller = new AbortController();
  state.running[name] = controller;
  bar.hidden = false;
  bar.value = 0;
  button.textContent = 'Stop';
  document.body.dataset.state = pageState;
  const started = performance.now();
  const onProgress = (done, total) => {
    bar.value = total === 0 ? 1 : done / total;
  };
  try {
    status.textContent = shown(
      await work({ signal: controller.signal, onProgress }, () => (performance.now() - started).toFixed(0)),
    );
  } catch (error) {
    status.textContent = shown(error.name === 'AbortError' ? `${what} stopped.` : `${what} failed: ${error.message}`);
  } finally {
    if (state.running[name] === controller) delete state.running[name];
    button.textContent = label;
    bar.hidden = true;
    document.body.dataset.state = 'done';
  }
}

/**
 * Each loadable shard of the model shown, read whole in turn by validateSafetensors with
 * `options` (scanData or hash); progress runs over all of them. The findings of the reads
 * join the model's, each with its shard.
 */
async function eachShard(options, { signal, onProgress }) {
  const { current } = state;
  const shards = current.shards.filter((s) => s.report.loadable);
  const results = [];
  for (const [i, shard] of shards.entries()) {
    const progress = (done, total) => onProgress(i + (total === 0 ? 1 : done / total), shards.length);
    const report = await validateSafetensors(shard.source(), { ...options, signal, onProgress: progress });
    results.push({ name: shard.name, report, extra: report.findings.slice(shard.report.findings.length) });
  }
  const findings = [...current.findings, ...results.flatMap((r) => r.extra.map((f) => ({ ...f, shard: r.name })))];
  showFindings(findings);
  return results;
}

export function hashFile() {
  const ui = {
    button: $('hash-button'),
    bar: $('hash-progress'),
    status: $('hash-status'),
    label: 'Compute hashes',
    what: 'Hashing',
    pageState: 'hashing',
  };
  return longRead('hash', ui, async (options, ms) => {
    const { current } = state;
    if (current.shards) {
      const results = await eachShard({ hash: true }, options);
      const hashed = results.map((r) => ({ name: r.name, hashes: r.report.hashes }));
      showShardHashes(hashed);
      for (const row of $('shards').tBodies[0].rows) {
        const found = hashed.find((h) => h.name === row.dataset.name);
        row.cells[3].textContent = found ? found.hashes.sha256 : '';
      }
      return `Hashed ${plural(hashed.length, 'shard')} in ${ms()} ms; each one's SHA-256 is in the shards table.`;
    }
    // A rejected file is hashed too: "is my download intact?"
    const result = current.st
      ? await current.st.hash(options)
      : (await validateSafetensors(current.file, { ...options, hash: true })).hashes;
    showHashes(result);
    showFindings([...current.findings, ...result.findings]);
    const size = current.st?.fileSize ?? current.file?.size;
    return `Hashed ${typeof size === 'number' ? formatBytes(size) : 'the file'} in ${ms()} ms.`;
  });
}

export function scan() {
  const ui = {
    button: $('scan'),
    bar: $('scan-progress'),
    status: $('scan-status'),
    label: 'Scan tensor data',
    what: 'Scan',
    pageState: 'scanning',
  };
  return longRead('scan', ui, async (options, ms) => {
    const { current } = state;
    let tensors;
    let bytes;
    let what = '';
    if (current.shards) {
      const results = await eachShard({ scanData: true }, options);
      tensors = results.flatMap((r) => r.report.dataScan.tensors);
      bytes = results.reduce((sum, r) => sum + r.report.dataScan.bytes, 0);
      what = ` of ${plural(results.length, 'shard')}`;
    } else {
      const report = await validateSafetensors(current.file, { ...options, scanData: true });
      showFindings(report.findings);
      ({ tensors, bytes } = report.dataScan);
    }
    showScanResults(tensors);
    const bad = tensors.filter((r) => r.nan + r.posInf + r.negInf > 0).length;
    const zero = tensors.filter((r) => r.allZero).length;
    return `Scanned ${formatBytes(bytes)}${what} in ${ms()} ms: ${bad} tensor(s) with NaN or infinities, ${zero} all-zero.`;
  });
}

export const formatValue = (v) => (typeof v === 'number' && !Number.isInteger(v) ? v.toPrecision(6) : String(v));

// The first rows of a tensor (at most PREVIEW_ELEMENTS values), decoded by getTensor.
export async function preview(name) {
  const { st } = state.current;
  const t = st.tensors.find((x) => x.name === name);
  const rowElements = t.shape.slice(1).reduce((a, b) => a * b, 1);
  const out = $('preview');
  out.hidden = false;
  // Whole rows of the first dimension, as many as fit in PREVIEW_ELEMENTS (at least one).
  const rows =
    t.shape.length === 0
      ? null
      : [0, Math.min(t.shape[0], Math.max(1, Math.floor(PREVIEW_ELEMENTS / Math.max(rowElements, 1))))];
  if (rowElements > MAX_PREVIEW_ROW) {
    out.textContent = shown(
      `${name}: one row holds ${rowElements.toLocaleString('en')} values; too many to preview here.`,
    );
  } else {
    out.textContent = shown(`reading ${name}…`);
    try {
      const started = performance.now();
      const values = await st.getTensor(name, rows ? { rows } : {});
      const ms = performance.now() - started;
      const values64 = Array.from(values.subarray(0, 64), formatValue).join(', ');
      const what = rows ? `rows ${rows[0]}–${rows[1]} of ${t.shape[0]}` : 'scalar';
      out.textContent = shown(
        `${name} (${t.dtype}, ${what}, ${values.length.toLocaleString('en')} values, ${ms.toFixed(1)} ms):\n${values64}${values.length > 64 ? ', …' : ''}`,
      );
    } catch (error) {
      out.textContent = shown(`${name}: ${error.code ?? error.name}: ${error.message}`);
    }
  }
  document.body.dataset.state = 'done';
}
