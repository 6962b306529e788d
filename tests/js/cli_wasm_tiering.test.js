// The CLI raises V8's wasm tiering budget (web/cli/main.js, issue 39): on a big header, inspect
// sends fewer wasm functions to the optimizing compiler than the library does in a process
// that keeps V8's default. V8 lists each compile with --trace-wasm-compilation-times.
import { afterAll, expect, test } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { writeSafetensors } from '../../tools/write_safetensors.js';
import { CLI } from './cli_run.js';

const run = promisify(execFile);
const work = await mkdtemp(join(tmpdir(), 'stw-cli-tiering-'));
afterAll(() => rm(work, { recursive: true, force: true }));

/** How many wasm functions V8 compiled with TurboFan while running `args` in a fresh node. */
async function turbofanCompiles(/** @type {string[]} */ args) {
  const { stdout } = await run(process.execPath, ['--trace-wasm-compilation-times', ...args], {
    maxBuffer: 64 << 20,
  });
  return stdout.split('\n').filter((line) => line.includes(' using TurboFan')).length;
}

test('inspect of a 2,400-tensor LoRA recompiles fewer wasm functions than the library with V8 defaults', async () => {
  const tensors = [];
  for (let block = 0; block < 400; block++)
    for (const part of ['to_q', 'to_k', 'to_v'])
      for (const [end, shape] of /** @type {const} */ ([
        ['lora_down.weight', [4, 8]],
        ['lora_up.weight', [8, 4]],
      ]))
        tensors.push({
          name: `lora_unet_down_blocks_${block}_attentions_0_transformer_blocks_0_attn1_${part}.${end}`,
          dtype: 'F16',
          shape: [...shape],
          data: new Uint8Array(64),
        });
  const file = join(work, 'lora.safetensors');
  await writeFile(file, writeSafetensors(tensors, { ss_network_module: 'networks.lora' }));
  const library = new URL('../../web/index.js', import.meta.url).href;
  const script = `const { openSafetensors } = await import(${JSON.stringify(library)});
    await (await openSafetensors(${JSON.stringify(file)})).describe();`;
  const withDefaults = await turbofanCompiles(['--input-type=module', '-e', script]);
  const cli = await turbofanCompiles([CLI, 'inspect', file]);
  expect(withDefaults).toBeGreaterThan(0);
  expect(cli).toBeLessThan(withDefaults);
});
