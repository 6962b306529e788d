// `safetensors-wasm check-adapter`: exit codes, text, --json, usage errors, unreadable headers.
import { describe, expect, test } from 'vitest';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bases } from './adapter_bases.js';
import { headerOnly, loraFile } from './header_only.js';
import { run as runCli } from './cli_run.js';

const base = { sd15Ldm: headerOnly(bases.sd15Ldm()), sdxlLdm: headerOnly(bases.sdxlLdm()) };

describe('safetensors-wasm check-adapter', () => {
  test('exit 0 compatible, 1 not (with reasons), 2 for a usage error or an unreadable header; --json', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'check-adapter-cli-'));
    const lora = join(dir, 'lora.safetensors');
    await writeFile(lora, loraFile([['lora_unet_input_blocks_4_1_transformer_blocks_0_attn2_to_k', 8, 2048, 640]]));
    await writeFile(join(dir, 'sdxl.safetensors'), base.sdxlLdm);
    await writeFile(join(dir, 'sd15.safetensors'), base.sd15Ldm);
    await writeFile(join(dir, 'broken.safetensors'), base.sd15Ldm.subarray(0, 50));
    const ok = await runCli(['check-adapter', lora, '--base', join(dir, 'sdxl.safetensors')]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(
      /: compatible\nadapter: kohya lora, 1 adapted module; base layout: ldm\nmatched: 1 of 1 module\n/,
    );
    const no = await runCli(['check-adapter', lora, '--base', join(dir, 'sd15.safetensors')]);
    expect(no.code).toBe(1);
    // An SDXL module on SD 1.5: the families first, then the reason.
    expect(no.stdout).toContain(
      '\nthe adapter is for Stable Diffusion XL (sdxl); the base is Stable Diffusion 1.x (sd1)\n',
    );
    expect(no.stdout).toMatch(
      /not compatible[\s\S]*unmatched \(1\):\n {2}lora_unet_input_blocks_4_1_transformer_blocks_0_attn2_to_k: lora_down.weight \[8, 2048\] reads 2048 inputs/,
    );
    const json = await runCli(['check-adapter', '--json', lora, `--base=${join(dir, 'sd15.safetensors')}`]);
    expect(JSON.parse(json.stdout)).toMatchObject({
      compatible: false,
      matched: 0,
      modules: 1,
      baseFormat: 'ldm',
      adapterFormat: 'kohya',
    });
    expect((await runCli(['check-adapter', lora])).code).toBe(2);
    const broken = await runCli(['check-adapter', lora, '--base', join(dir, 'broken.safetensors')]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/^check-adapter: the base's header cannot be used/);
    // - for standard input, on either side (not both).
    const piped = await runCli(['check-adapter', '-', '--base', join(dir, 'sdxl.safetensors')], {
      input: await readFile(lora),
    });
    expect(piped.code).toBe(0);
    expect(piped.stdout).toMatch(/^- on .*sdxl\.safetensors: compatible\n/);
    const pipedBase = await runCli(['check-adapter', lora, '--base', '-'], {
      input: await readFile(join(dir, 'sdxl.safetensors')),
    });
    expect(pipedBase.code).toBe(0);
    const twice = await runCli(['check-adapter', '-', '--base', '-']);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('standard input (-) can be read only once');
    const missing = await runCli(['check-adapter', join(dir, 'missing.safetensors'), '--base', lora]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^check-adapter: cannot read .*missing\.safetensors: .*no such file/i);
  });
});
