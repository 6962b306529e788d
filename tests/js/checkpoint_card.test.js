// openCheckpoint().describe() (web/pickle/checkpoint_card.js) over checkpoints torch.save wrote
// (tests/checkpoints: make_checkpoints.py, make_embeddings.py): the card the card module builds
// from the tensors is the one describe() gives for the same tensors converted to .safetensors;
// its counts and dtypes are torch's (expected.json); an A1111 textual inversion is an
// embedding whose width names its family, with the name, step and base model its objects hold;
// a Lightning checkpoint's epoch and step are its training values.
import { describe, expect, test } from 'vitest';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { openCheckpoint, openSafetensors } from '../../web/index.js';

const DIR = fileURLToPath(new URL('../checkpoints/', import.meta.url));
const EXPECTED = JSON.parse(await readFile(`${DIR}expected.json`, 'utf8'));
/** torch's dtype names as safetensors names them (safetensors/torch.py _TYPES). */
const SAFETENSORS_DTYPE = { float32: 'F32', float16: 'F16' };

/** Parameters by safetensors dtype, as torch described the file's tensors (state_dict unwrapped). */
function torchCounts(/** @type {string} */ file) {
  const all = Object.entries(EXPECTED[file].tensors);
  const inner = all.filter(([name]) => name.startsWith('state_dict.'));
  /** @type {Record<string, number>} */
  const byDtype = {};
  for (const [, t] of inner.length ? inner : all) {
    const dtype = SAFETENSORS_DTYPE[/** @type {keyof typeof SAFETENSORS_DTYPE} */ (t.dtype)];
    byDtype[dtype] =
      (byDtype[dtype] ?? 0) + t.shape.reduce((/** @type {number} */ a, /** @type {number} */ b) => a * b, 1);
  }
  return byDtype;
}

/** The card without what only the tensors' bytes or the checkpoint's objects decide. */
const tensorFacts = (/** @type {any} */ card) => ({
  kind: card.kind,
  family: card.family,
  parameters: card.parameters,
  memory: card.memory,
  architecture: card.architecture,
  modules: card.modules,
  embedding: card.embedding && { vectors: card.embedding.vectors, width: card.embedding.width },
});

describe.each(['parameters.pt', 'lightning.ckpt', 'embedding.pt', 'legacy.pt'])('%s', (file) => {
  test("its card counts torch's tensors by dtype, and is the card of the same tensors as .safetensors", async () => {
    const ckpt = await openCheckpoint(`${DIR}${file}`);
    const card = await ckpt.describe();
    const byDtype = torchCounts(file);
    expect(card.parameters.byDtype).toEqual(byDtype);
    expect(card.parameters.total).toBe(Object.values(byDtype).reduce((a, b) => a + b, 0));
    expect(card.modules.tensors).toBe(ckpt.tensors.length);
    const converted = await openSafetensors(await ckpt.toSafetensors());
    expect(tensorFacts(card)).toEqual(tensorFacts(await converted.describe()));
  });
});

test('parameters.pt: a model of two tensors, no family, no training values', async () => {
  const card = await (await openCheckpoint(`${DIR}parameters.pt`)).describe();
  expect(card.kind).toBe('unknown');
  expect(card.family).toBeNull();
  expect(card.training).toBeNull();
  expect(card.embedding).toBeNull();
  expect(card.memory.bytes).toBe(card.parameters.total * 4);
});

test("lightning.ckpt: state_dict's tensors, with Lightning's epoch, global_step and hyper_parameters as training values", async () => {
  const ckpt = await openCheckpoint(`${DIR}lightning.ckpt`);
  const card = await ckpt.describe();
  const value = (/** @type {string} */ name) => ckpt.objects.find((o) => o.name === name)?.value;
  expect(value('epoch')).toBeTypeOf('number');
  expect(card.training).toMatchObject({
    epoch: value('epoch'),
    global_step: value('global_step'),
    'pytorch-lightning_version': value('pytorch-lightning_version'),
    'hyper_parameters.lr': value('hyper_parameters.lr'),
  });
  expect(Object.keys(card.training ?? {})).not.toContain('optimizer_states.0.param_groups.0.lr');
  expect(card.modules.children.map((c) => c.name).sort()).toEqual(['0', '2']);
});

describe('A1111 textual inversions', () => {
  test('embedding.pt: kind embedding, its vectors and width from string_to_param, its name, step and base model', async () => {
    const ckpt = await openCheckpoint(`${DIR}embedding.pt`);
    const [vectors, width] = EXPECTED['embedding.pt'].tensors['string_to_param.*'].shape;
    const value = (/** @type {string} */ name) => ckpt.objects.find((o) => o.name === name)?.value;
    const card = await ckpt.describe();
    expect(card.kind).toBe('embedding');
    expect(card.family).toBeNull(); // 16 wide: no text encoder's width
    expect(card.embedding).toEqual({ vectors, width, name: value('name'), step: value('step') });
    expect(card.title).toBe(value('name'));
    expect(card.triggerWords[0]).toEqual({ text: value('name'), source: 'name' });
    expect(card.baseModel).toEqual({ name: value('sd_checkpoint_name'), hash: value('sd_checkpoint'), version: null });
    expect(card.training).toEqual({ step: value('step') });
  });

  test.each([
    ['embedding_sd1.pt', 'sd1', 3, 768],
    ['embedding_sd2.pt', 'sd2', 1, 1024],
  ])('%s: the width names the family %s', async (file, family, vectors, width) => {
    const ckpt = await openCheckpoint(`${DIR}${file}`);
    expect(ckpt.tensors.map((t) => [t.name, t.shape])).toEqual([['string_to_param.*', [vectors, width]]]);
    const card = await ckpt.describe();
    expect(card.kind).toBe('embedding');
    expect(card.family?.id).toBe(family);
    expect(card.embedding).toMatchObject({ vectors, width });
  });

  test('the same vectors as .safetensors: the card module gives vectors and width, the checkpoint adds name and step', async () => {
    const ckpt = await openCheckpoint(`${DIR}embedding_sd1.pt`);
    const converted = await (await openSafetensors(await ckpt.toSafetensors())).describe();
    expect(converted.kind).toBe('embedding');
    expect(converted.embedding).toEqual({ vectors: 3, width: 768 });
    expect(converted.title).toBeNull();
    expect((await ckpt.describe()).embedding).toEqual({ vectors: 3, width: 768, name: 'sd1-style', step: 1500 });
  });

  test('embedding_sd2.pt: sd_checkpoint None gives no base model; step 0 is kept', async () => {
    const card = await (await openCheckpoint(`${DIR}embedding_sd2.pt`)).describe();
    expect(card.baseModel).toBeNull();
    expect(card.embedding?.step).toBe(0);
    expect(card.training).toEqual({ step: 0 });
  });
});

test('describe() builds the card once: a new object each call, equal to the first', async () => {
  const ckpt = await openCheckpoint(`${DIR}embedding_sd1.pt`);
  const [a, b] = await Promise.all([ckpt.describe(), ckpt.describe()]);
  expect(a).not.toBe(b);
  expect(b).toEqual(a);
  b.triggerWords.length = 0;
  expect((await ckpt.describe()).triggerWords.length).toBe(1);
});

test('dtypes.pt: a tensor safetensors has no dtype for (complex128) is left out of the card', async () => {
  const ckpt = await openCheckpoint(`${DIR}dtypes.pt`);
  const card = await ckpt.describe();
  const described = ckpt.tensors.filter((t) => t.dtype !== null);
  expect(described.length).toBe(ckpt.tensors.length - 1);
  expect(card.modules.tensors).toBe(described.length);
  expect(Object.keys(card.parameters.byDtype).sort()).toEqual(described.map((t) => t.dtype).sort());
});

test('a plain pickle without tensors has a card with no parameters', async () => {
  const card = await (await openCheckpoint(`${DIR}data_p2.pkl`)).describe();
  expect(card.kind).toBe('unknown');
  expect(card.parameters.total).toBe(0);
  expect(card.modules.tensors).toBe(0);
});
