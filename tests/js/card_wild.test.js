// The model card on files from the wild: the 18 real files of ../shared/fixtures/wild (read in
// place, their facts from that folder's README) and the real layouts of wild_layouts.js (headers
// rewritten from public repositories, data zeros). Each fact is judged right, silent or wrong
// (wild_facts.js); the table is printed (BENCHMARKS.md, "The card on files from the wild").
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSafetensors, validateSafetensors } from '../../web/index.js';
import { haveFixtures, rawFile } from './fixtures.js';
import { FIELDS, cardValues, judgeAll, parseFacts, readmeRows } from './wild_facts.js';
import { WILD_LAYOUTS } from './wild_layouts.js';

const WILD_DIR = fileURLToPath(new URL('../../../shared/fixtures/wild/', import.meta.url));
const HAVE_WILD = haveFixtures(WILD_DIR);

const BYTES = { F32: 4, BF16: 2, F16: 2 };

/**
 * A file with the layout's header (tensors packed in the order given) and zero data.
 * @param {(typeof WILD_LAYOUTS)[number]} layout
 */
function layoutBytes(layout) {
  let offset = 0;
  const entries = layout.metadata ? [`"__metadata__":${JSON.stringify(layout.metadata)}`] : [];
  for (const t of layout.tensors()) {
    const size = t.shape.reduce((a, b) => a * b, 1) * BYTES[/** @type {keyof typeof BYTES} */ (t.dtype)];
    entries.push(
      `${JSON.stringify(t.name)}:${JSON.stringify({ dtype: t.dtype, shape: t.shape, data_offsets: [offset, offset + size] })}`,
    );
    offset += size;
  }
  return rawFile(`{${entries.join(',')}}`, offset);
}

/**
 * The card of `bytes` (null when the file cannot be described) and its validation report.
 * @param {Uint8Array} bytes
 */
async function cardAndReport(bytes) {
  const report = await validateSafetensors(bytes);
  const card = report.loadable ? await (await openSafetensors(bytes)).describe() : null;
  return { card, report };
}

const cases = [
  ...(HAVE_WILD
    ? readmeRows(readFileSync(join(WILD_DIR, 'README.md'), 'utf8')).map((row) => ({
        name: row.file.replace('.safetensors', ''),
        source: row.source,
        facts: row.facts,
        bytes: () => new Uint8Array(readFileSync(join(WILD_DIR, row.file))),
      }))
    : []),
  ...WILD_LAYOUTS.map((layout) => ({
    name: layout.name,
    source: `${layout.repo}, ${layout.path} @ ${layout.commit.slice(0, 12)}`,
    facts: parseFacts(layout.facts),
    bytes: () => layoutBytes(layout),
  })),
];

// Facts the card does not get yet, as "file field": the test fails when one of them comes
// right (take it off) or when another goes silent or wrong.
const KNOWN_GAPS = new Set([
  'diffusers_old_processor_sd15 kind',
  'diffusers_old_processor_sd15 family',
  'diffusers_old_processor_sd15 adapter_type',
  'diffusers_old_processor_sd15 adapter_format',
  'diffusers_old_processor_sd15 rank',
  'diffusers_old_processor_sd15 targets',
  'diffusers_textual_inversion_sd15 kind',
  'diffusers_textual_inversion_sd15 family',
  'diffusers_textual_inversion_sd15 trigger',
  'kohya_flux_lora_truncated kind',
  'kohya_flux_lora_truncated family',
  'kohya_flux_lora_truncated variant',
  'kohya_flux_lora_truncated adapter_type',
  'kohya_flux_lora_truncated adapter_format',
  'kohya_flux_lora_truncated rank',
  'kohya_flux_lora_truncated title',
  'lfs_pointer_invokeai_stripped_lokr format',
  'lfs_pointer_peft_llm_adapter format',
  'lfs_pointer_textual_inversion format',
  'mlx_lora_gemma2b_q_v kind',
  'mlx_lora_gemma2b_q_v adapter_type',
  'mlx_lora_gemma2b_q_v adapter_format',
  'mlx_lora_gemma2b_q_v rank',
  'mlx_lora_gemma2b_q_v targets',
  'peft_bert_query_value_seqcls family',
  'peft_bloom560m_query_key_value family',
  'peft_bloom560m_query_key_value targets',
  'peft_distilbert_q_lin_v_lin family',
  'peft_distilgpt2_c_attn family',
  'peft_distilgpt2_c_attn targets',
  'peft_t5_small_q_v family',
  'peft_gpt2_c_attn_c_proj family',
  'peft_gpt2_c_attn_c_proj targets',
  'peft_gpt2_seqcls_score family',
  'peft_gpt2_seqcls_score targets',
  'peft_distilbert_emotion family',
  'diffusers_unet_sd21 targets',
  'diffusers_unet_sd21_base_bf16 targets',
  'diffusers_unet_sd15 targets',
  'diffusers_unet_sd15_course targets',
  'diffusers_unet_sd15_notebook targets',
  'diffusers_old_processor_sd14 kind',
  'diffusers_old_processor_sd14 family',
  'diffusers_old_processor_sd14 adapter_type',
  'diffusers_old_processor_sd14 adapter_format',
  'diffusers_old_processor_sd14 rank',
  'diffusers_old_processor_sd14 targets',
  'diffusers_old_processor_sd15 kind',
  'diffusers_old_processor_sd15 family',
  'diffusers_old_processor_sd15 adapter_type',
  'diffusers_old_processor_sd15 adapter_format',
  'diffusers_old_processor_sd15 rank',
  'diffusers_old_processor_sd15 targets',
  'mlx_lora_qwen25_05b kind',
  'mlx_lora_qwen25_05b adapter_type',
  'mlx_lora_qwen25_05b adapter_format',
  'mlx_lora_qwen25_05b rank',
  'mlx_lora_qwen25_05b targets',
  'lora_vit_sam_rank8 kind',
  'lora_vit_sam_rank8 adapter_type',
  'lora_vit_sam_rank8 rank',
]);

describe('the card on files from the wild', () => {
  test('the wild fixtures and the layouts are all there', () => {
    if (HAVE_WILD) expect(cases.length).toBe(18 + WILD_LAYOUTS.length);
    expect(WILD_LAYOUTS.length).toBeGreaterThanOrEqual(13);
  });

  test('each fact is right, except the known gaps', { timeout: 60_000 }, async () => {
    const rows = [];
    const totals = { right: 0, silent: 0, wrong: 0 };
    const misses = [];
    for (const c of cases) {
      const { card, report } = await cardAndReport(c.bytes());
      const verdicts = judgeAll(c.facts, cardValues(card, report));
      for (const v of verdicts) {
        totals[v.verdict]++;
        if (v.verdict !== 'right') misses.push(`${c.name} ${v.field}`);
      }
      const cell = (/** @type {string} */ field) => {
        const v = verdicts.find((x) => x.field === field);
        if (!v) return '';
        return v.verdict === 'right' ? 'right' : `**${v.verdict}**${v.value === null ? '' : `: ${v.value}`}`;
      };
      rows.push(`| ${c.name} | ${FIELDS.map(cell).join(' | ')} |`);
    }
    console.log(
      [
        `| file | ${FIELDS.join(' | ')} |`,
        `| --- | ${FIELDS.map(() => '---').join(' | ')} |`,
        ...rows,
        '',
        `${cases.length} files, ${totals.right + totals.silent + totals.wrong} facts: ${totals.right} right, ${totals.silent} silent, ${totals.wrong} wrong`,
      ].join('\n'),
    );
    const unexpected = misses.filter((m) => !KNOWN_GAPS.has(m));
    const named = new Set(cases.map((c) => c.name));
    const fixed = [...KNOWN_GAPS].filter((m) => named.has(m.split(' ')[0]) && !misses.includes(m));
    expect({ unexpected, fixed }).toEqual({ unexpected: [], fixed: [] });
  });
});
