// The memory estimate on the card, through describe() and as the CLI and the demo word it.
import { expect, test } from 'vitest';
import { openSafetensors } from '../../web/index.js';
import { memoryText, shortBytes } from '../../web/card/card_text.js';
import { writeSafetensors } from '../../tools/write_safetensors.js';

test('memory: the bytes as stored by dtype, and the weights at 16, 8 and 4 bits', async () => {
  const file = writeSafetensors([
    { name: 'model.layers.0.mlp.up_proj.weight', dtype: 'BF16', shape: [1024, 512], data: new Uint8Array(1 << 20) },
    { name: 'model.norm.weight', dtype: 'F32', shape: [512], data: new Uint8Array(2048) },
  ]);
  const card = await (await openSafetensors(file)).describe();
  const weights = 1024 * 512 + 512;
  expect(card.memory).toEqual({
    bytes: (1 << 20) + 2048,
    byDtype: { BF16: 1 << 20, F32: 2048 },
    at16Bit: 2 * weights,
    at8Bit: weights,
    at4Bit: weights / 2,
  });
  expect(memoryText(card)).toBe(
    '1.0 MiB stored (BF16 1.0 MiB, F32 2.0 KiB); 16-bit 1.0 MiB, 8-bit 512.5 KiB, 4-bit 256.3 KiB',
  );
});

test('shortBytes: bytes below 1 KiB, then binary units', () => {
  expect(shortBytes(1023)).toBe('1023 bytes');
  expect(shortBytes(1)).toBe('1 byte');
  expect(shortBytes(1536)).toBe('1.5 KiB');
  expect(shortBytes(3 * 1024 ** 3)).toBe('3.0 GiB');
  expect(shortBytes(2 * 1024 ** 5)).toBe('2048.0 TiB');
});
