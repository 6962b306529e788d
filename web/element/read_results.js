// What <safetensors-card>'s buttons do and what they found: "Compute hashes" (the hashes, and
// each claim of the metadata checked), "Scan tensor data", "Find on Civitai" (its answer as text,
// the one link only to a civitai.com page) and "Convert and save" (an unsafe checkpoint refused
// until the user picks "tensors only"). Loaded on the first click (./card_actions.js holds the
// state and the buttons), with the reads themselves (./card_reads.js).
import { html, nothing } from 'lit';
import { convertAndSave, hashAnswer, scanAnswer } from './card_reads.js';
import { civitaiAsks, civitaiPage, formatBytes, plural, shown } from './card_words.js';

export { previewText } from './card_reads.js';

/**
 * @typedef {import('./card_actions.js').CardActions} CardActions
 * @typedef {import('./card_actions.js').CardAnswer} CardAnswer
 * @typedef {import('./card_reads.js').ReadContext} ReadContext
 */

const elapsed = (/** @type {number} */ since) => (performance.now() - since).toFixed(0);

/**
 * "Compute hashes": the hashes kept in `actions`, their findings added; the status line.
 * @param {CardActions} actions
 * @param {CardAnswer} a
 * @param {ReadContext} context
 */
export async function hashWork(actions, a, context) {
  const started = performance.now();
  const hashed = await hashAnswer(actions.api, a, context);
  context.signal.throwIfAborted();
  actions.hashed = hashed;
  actions.findings = [...actions.findings, ...hashed.findings];
  if (a.kind === 'model')
    return `Hashed ${plural(hashed.shards.length, 'shard')} in ${elapsed(started)} ms; each one's SHA-256 is in the shards table.`;
  return `Hashed ${a.size === null ? 'the file' : formatBytes(a.size)} in ${elapsed(started)} ms.`;
}

/**
 * "Scan tensor data": each tensor's counts kept in `actions`, their findings added; the status line.
 * @param {CardActions} actions
 * @param {CardAnswer} a
 * @param {ReadContext} context
 */
export async function scanWork(actions, a, context) {
  const started = performance.now();
  const result = await scanAnswer(actions.api, a, context);
  context.signal.throwIfAborted();
  actions.scan = new Map(result.tensors.map((r) => [r.name, r]));
  actions.findings = [...actions.findings, ...result.findings];
  const bad = result.tensors.filter((r) => r.nan + r.posInf + r.negInf > 0).length;
  const zero = result.tensors.filter((r) => r.allZero).length;
  const of = a.kind === 'model' ? ` of ${plural(result.shards, 'shard')}` : '';
  return `Scanned ${formatBytes(result.bytes)}${of} in ${elapsed(started)} ms: ${bad} tensor(s) with NaN or infinities, ${zero} all-zero.`;
}

/**
 * "Find on Civitai": asks with each hash in turn (./card_links.js civitaiAsks) until Civitai
 * knows one; its answer kept in `actions` (the one link only for an https://civitai.com/ page).
 * @param {CardActions} actions
 * @param {CardAnswer} a
 * @param {ReadContext} context
 */
export async function civitaiWork(actions, a, { signal }) {
  let version = null;
  try {
    for (const ask of civitaiAsks(a.card, actions.hashed?.file ?? null)) {
      actions.status.set('civitai', `Asking civitai.com about ${ask.what}…`);
      actions.host.requestUpdate();
      version = await actions.api.lookupCivitai(ask.hash, { signal });
      if (version) break;
    }
    signal.throwIfAborted();
  } catch (error) {
    actions.civitai = [];
    return civitaiFailure(error);
  }
  if (!version) {
    actions.civitai = [];
    return 'Not on Civitai: Civitai knows no file with this hash.';
  }
  const page = civitaiPage(version.pageUrl);
  actions.civitai = [
    ['Model', version.modelName ?? '', null],
    ['Version', version.versionName ?? '', null],
    ['Base model', version.baseModel ?? '', null],
    ['Trained words', version.trainedWords.join(', '), null],
    ['AIR', version.air ?? '', null],
    ['Page', page ?? '', page],
  ];
  return 'Found on Civitai.';
}

/**
 * Why a Civitai lookup failed, as a person reads it.
 * @param {unknown} error
 */
function civitaiFailure(error) {
  const code = error instanceof Error && 'code' in error ? error.code : null;
  if (error instanceof Error && error.name === 'AbortError') return 'Stopped: nothing more is asked of Civitai.';
  if (code === 'ReadError')
    return 'Could not reach civitai.com (no network, or the site refused the request). Try again later.';
  if (code === 'HttpError') {
    const status = /** @type {{ status?: number }} */ (error).status;
    return `Civitai answered an error (HTTP ${status}). Try again later.`;
  }
  return `Civitai's answer could not be read: ${error instanceof Error ? error.message : String(error)}`;
}

/**
 * "Convert and save": a refusal (UnsafeCheckpoint) offers "tensors only" instead.
 * @param {CardActions} actions
 * @param {import('./open_answer.js').CheckpointAnswer} a
 * @param {boolean} allowUnsafeGlobals
 * @param {ReadContext} context
 */
export async function convertWork(actions, a, allowUnsafeGlobals, context) {
  try {
    return await convertAndSave(actions.api, a, allowUnsafeGlobals, context);
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'UnsafeCheckpoint') {
      actions.offerUnsafe = true;
      return `Refused: ${error.message}. “Convert the tensors only” writes its tensors and leaves the globals behind.`;
    }
    throw error;
  }
}

/**
 * The hashes once computed, and ✓/✗ for each claim the metadata makes.
 * @param {CardActions} actions
 */
export function hashView(actions) {
  const h = actions.hashed;
  if (!h) return nothing;
  const file = h.file;
  const checks = file
    ? file.checks.map((c) => ({ ...c, shard: '' }))
    : h.shards.flatMap((s) => s.hashes.checks.map((c) => ({ ...c, shard: `${s.name}: ` })));
  /** @type {[string, string, string | null][]} */
  const rows = file
    ? [
        ['SHA-256', 'hash-sha256', file.sha256],
        ['AutoV2', 'hash-autov2', file.autoV2],
        ['AutoV3', 'hash-autov3', file.autoV3],
        ['AutoV1', 'hash-autov1', file.autoV1 ?? '– (file under 1 MiB + 64 KiB)'],
        ['Data SHA-256', 'hash-data', file.dataSha256],
      ]
    : [];
  const claim = (/** @type {(typeof checks)[number]} */ c) =>
    `${c.shard}${c.match ? '✓' : '✗'} ${c.key}: ${c.match ? 'matches' : `claims ${c.claimed}, the file has ${c.actual}`}`;
  return html`${file ? html`<dl data-testid="hashes">${rows.map(([label, id, value]) => html`<dt>${label}</dt><dd class="digest" data-testid=${id}>${value ?? '–'}</dd>`)}</dl>` : nothing}
    <ul class="findings" data-testid="hash-checks">${checks.length === 0 ? html`<li class="muted">The metadata claims no hash of ${file ? 'this file' : 'the shards'}.</li>` : checks.map((c) => html`<li class=${c.match ? 'good' : 'bad'} data-testid="hash-check">${shown(claim(c))}</li>`)}</ul>`;
}

/**
 * Civitai's answer, once asked: its values as text, the one link only for a civitai.com page.
 * @param {CardActions} actions
 */
export function civitaiView(actions) {
  const rows = actions.civitai.filter(([, value]) => value !== '');
  if (rows.length === 0) return nothing;
  return html`<dl data-testid="civitai-result">${rows.map(([label, value, link]) => html`<dt>${label}</dt><dd data-testid=${`civitai-${label.toLowerCase().replace(/ /g, '-')}`}>${link ? html`<a href=${link} target="_blank" rel="noopener noreferrer nofollow" data-testid="civitai-link">${link}</a>` : shown(value)}</dd>`)}</dl>`;
}
