// Compiled by tsc (make test) against web/index.d.ts: the documented usage must type-check,
// and misuse must not (each @ts-expect-error fails the build if the error disappears).
import { open } from 'node:fs/promises';
import {
  initSafetensors,
  preload,
  openSafetensors,
  openSafetensorsIndex,
  validateSafetensors,
  SafetensorsError,
  type DataScan,
  type ErrorCode,
  type Finding,
  type SafetensorsFile,
  type ModelCard,
  type HashResult,
  type ModuleNode,
  type TensorArray,
  type TensorInfo,
  type ValidationReport,
  openSafetensorsPipeline,
  type PipelineComponent,
  type SafetensorsPipeline,
} from '../../web/index.js';

export async function usage(file: Blob): Promise<number> {
  await initSafetensors({ locateFile: (path) => `/assets/${path}` });
  await initSafetensors({ wasmBinary: new Uint8Array(8), cardWasmBinary: new ArrayBuffer(8) });
  const preloaded: Promise<void> = preload();
  await preload({ card: false, pickle: true });
  // @ts-expect-error preload's options are booleans
  await preload({ card: 'yes' });
  await preloaded;
  const controller = new AbortController();
  const st: SafetensorsFile = await openSafetensors(file, { signal: controller.signal });
  const first: TensorInfo | undefined = st.tensors[0];
  const params = st.tensors.reduce((sum, t) => sum + t.shape.reduce((a, b) => a * b, 1), 0);
  const exact: bigint[] | undefined = first?.exactShape;
  const [begin, end]: [number, number] = first ? first.dataOffsets : [0, 0];
  const lr: string | undefined = st.metadata?.['ss_learning_rate'];

  const report: ValidationReport = await validateSafetensors(new Uint8Array(8));
  const kinds: (string | null)[] = [report.referenceError];
  const warnings: Finding[] = report.findings.filter((f) => f.severity === 'warning');
  // A URL that answered an error status: the status, in a verdict (not a throw).
  const status: number | undefined = (await validateSafetensors('https://example.org/missing.safetensors')).status;

  const handle = await open('model.safetensors');
  await validateSafetensors(handle);
  await validateSafetensors({ size: 10, read: async (offset, length) => new Uint8Array(length + offset * 0) });

  const same: ValidationReport = st.report;
  try {
    await openSafetensors(new ArrayBuffer(0));
  } catch (error) {
    if (error instanceof SafetensorsError && error.code === 'MetadataIncompleteBuffer')
      return error.findings.length + (error.report?.tensors ?? 0);
    const code: ErrorCode | undefined = error instanceof SafetensorsError ? error.code : undefined;
    // @ts-expect-error codes are a closed set
    if (code === 'NoSuchCode') return 0;
  }
  // A URL is a source, with options for its requests.
  await openSafetensors('https://example.com/model.safetensors', {
    headers: { Authorization: 'Bearer t' },
    firstRead: 1 << 16,
  });
  await openSafetensors(new URL('https://example.com/model.safetensors'), { fetch: globalThis.fetch });
  // Node: a path or a file: URL.
  await openSafetensors('model.safetensors');
  await openSafetensors(new URL('file:///models/model.safetensors'));
  // @ts-expect-error firstRead is a number of bytes
  await openSafetensors('https://example.com/model.safetensors', { firstRead: '64k' });
  // @ts-expect-error severities are a closed set
  const bad: Finding = { code: 'x', severity: 'fatal', message: '' };
  return (
    params +
    begin +
    end +
    (exact?.length ?? 0) +
    (lr?.length ?? 0) +
    kinds.length +
    warnings.length +
    bad.message.length +
    same.tensors
  );
}

export async function scanning(file: Blob): Promise<number> {
  const report = await validateSafetensors(file, {
    scanData: true,
    onProgress: (done, total) => console.log(done / total),
  });
  const scan: DataScan | null = report.dataScan;
  const bad = scan?.tensors.filter((t) => t.nan + t.posInf + t.negInf > 0 || t.allZero) ?? [];
  const plain = await validateSafetensors(file);
  // @ts-expect-error without scanData, dataScan may be absent
  const absent: DataScan | null = plain.dataScan;
  // @ts-expect-error scanData is a boolean
  await validateSafetensors(file, { scanData: 'yes' });
  return bad.length + (absent?.bytes ?? 0);
}

export async function decoding(st: SafetensorsFile): Promise<number> {
  const weights: Float32Array = await st.getTensor('w', { as: 'float32' });
  const bytes: Uint8Array = await st.getTensor('w', { as: 'raw', rows: [0, 2] });
  const any: TensorArray = await st.getTensor('w', {
    signal: AbortSignal.timeout(1000),
    onProgress: (done, total) => console.log(done / total),
  });
  const reused = new Float32Array(weights.length);
  const filled: Float32Array = await st.getTensor('w', { as: 'float32', into: reused });
  // @ts-expect-error `as` is a closed set
  await st.getTensor('w', { as: 'float16' });
  // @ts-expect-error rows is a pair
  await st.getTensor('w', { rows: 3 });
  return weights.length + bytes.length + any.length + filled.length;
}

export async function card(st: SafetensorsFile): Promise<string> {
  const c: ModelCard = await st.describe({ readAlpha: true });
  const kind: 'model' | 'adapter' | 'embedding' | 'unknown' = c.kind;
  const rank: number | null = c.adapter?.rank ?? null;
  const tree: ModuleNode = c.modules;
  const words: string[] = c.triggerWords.map((w) => w.text);
  const kv: number | undefined = c.memory.kvCache?.bytesPer1000Tokens;
  const dtypeFrom: 'config' | 'weights' | undefined = c.memory.kvCache?.dtypeFrom;
  // @ts-expect-error kvCache may be absent
  const always: number = c.memory.kvCache.bytesPerToken;
  // @ts-expect-error kind is a closed set
  const wrong: ModelCard['kind'] = 'lora';
  // @ts-expect-error readAlpha is a boolean
  await st.describe({ readAlpha: 1 });
  return `${kind} ${rank} ${tree.children.length} ${words.join()} ${c.family?.id} ${wrong} ${kv} ${dtypeFrom} ${always}`;
}

// One file with its config.json (the card's KV cache): picked, its bytes, a URL or (Node) a path.
export async function withConfig(file: File, config: File): Promise<number | undefined> {
  const st = await openSafetensors(file, { config });
  await openSafetensors('./model.safetensors', { config: './config.json' });
  await openSafetensors(file, { config: new Uint8Array(2), signal: AbortSignal.timeout(1000) });
  await openSafetensors('https://example.com/model.safetensors', {
    config: new URL('https://example.com/config.json'),
  });
  await openSafetensors('./model.safetensors', { config: null }); // none, not even beside the path
  // @ts-expect-error the config is a file, bytes, a URL or a path, not its parsed object
  await openSafetensors(file, { config: { num_hidden_layers: 32 } });
  const model = await openSafetensorsIndex({ index: {}, resolve: () => file, config });
  await openSafetensorsIndex([file, config]); // one file and its config, as a model of one shard
  return (await st.describe()).memory.kvCache?.bytesPerToken ?? (await model.describe()).memory.kvCache?.layers;
}

export async function hashes(st: SafetensorsFile, file: Blob): Promise<string> {
  const h: HashResult = await st.hash({
    tensors: ['w'],
    onProgress: (done: number, total: number) => void (done + total),
  });
  const sha: string | null = h.sha256;
  const claims: boolean[] = h.checks.map((c) => c.match);
  const perTensor: string | undefined = h.tensors?.w;
  const report = await validateSafetensors(file, { hash: true, scanData: true });
  const again: string | null | undefined = report.hashes?.dataSha256;
  // @ts-expect-error tensors is a boolean or names
  await st.hash({ tensors: 'w' });
  return `${sha} ${claims.join()} ${perTensor} ${again}`;
}

export async function pipeline(files: File[]): Promise<string> {
  const p: SafetensorsPipeline = await openSafetensorsPipeline(files, {
    variant: 'fp16',
    onProgress: (done: number, total: number) => void (done + total),
  });
  const unet: PipelineComponent | undefined = p.components.find((c) => c.name === 'unet');
  const kind: 'file' | 'sharded' | 'none' | 'missing' | undefined = unet?.weights;
  const tensors: number = unet?.model?.tensors.length ?? 0;
  const where: string | undefined = p.findings[0]?.component;
  // @ts-expect-error variant is a string
  await openSafetensorsPipeline(files, { variant: 16 });
  return `${kind} ${tensors} ${where} ${p.className}`;
}

export async function batch(st: SafetensorsFile): Promise<number> {
  const all: Map<string, TensorArray> = await st.getTensors();
  const floats: Map<string, Float32Array> = await st.getTensors(['a', 'b'], {
    as: 'float32',
    concurrency: 2,
    onProgress: (d: number, t: number) => void (d + t),
  });
  // @ts-expect-error names is an array
  await st.getTensors('a');
  return all.size + floats.size;
}

export async function workers(file: File): Promise<number> {
  const { openInWorker } = await import('../../web/worker.js');
  const remote = await openInWorker(file, { concurrency: 2 });
  const values: Float32Array = await remote.getTensor('w', { as: 'float32' });
  for await (const piece of remote.streamTensor('w')) void piece.offset;
  // @ts-expect-error into cannot cross to a worker
  await remote.getTensor('w', { into: new Float32Array(4) });
  remote.close();
  // Node: a FileHandle-like source, or a { size, read } reader, read on this thread for the workers.
  const reader = { size: 8, read: async (offset: number, length: number) => new Uint8Array(length + offset * 0) };
  (await openInWorker(reader)).close();
  // @ts-expect-error a number is no source
  await openInWorker(42);
  return values.length;
}

export async function pickles(file: File): Promise<string[]> {
  const { scanPickle } = await import('../../web/index.js');
  const scan: import('../../web/index.js').PickleScan = await scanPickle(file);
  const unsafe: import('../../web/index.js').PickleGlobal[] = scan.globals.filter((g) => g.safety === 'unsafe');
  await scanPickle('https://example.com/model.ckpt');
  await scanPickle(new Uint8Array(8));
  // @ts-expect-error the verdict is one of three words
  const wrong: 'dangerous' = scan.verdict;
  return [
    scan.format,
    scan.verdict,
    ...unsafe.map((g) => `${g.module}.${g.name}`),
    ...scan.findings.map((f) => f.code),
    String(wrong),
  ];
}

export async function checkpoints(file: File): Promise<number> {
  const { openCheckpoint } = await import('../../web/index.js');
  const ckpt: import('../../web/index.js').Checkpoint = await openCheckpoint(file);
  const first: import('../../web/index.js').CheckpointTensor | undefined = ckpt.tensors[0];
  const values: import('../../web/index.js').TensorArray = await ckpt.getTensor(first?.name ?? 'w');
  const dtype: string | null = first?.dtype ?? null;
  // @ts-expect-error a stride is numbers
  const wrong: string[] = first?.stride ?? [];
  const epoch: string | number | boolean | null | undefined = ckpt.objects.find((o) => o.name === 'epoch')?.value;
  return (
    values.length + (dtype?.length ?? 0) + ckpt.globals.length + wrong.length + Number(epoch) + ckpt.objectsLeftOut
  );
}

export async function checkpointCard(file: File): Promise<number> {
  const { openCheckpoint } = await import('../../web/index.js');
  const ckpt = await openCheckpoint(file);
  // The same signature as a .safetensors file's describe(): a ModelCard.
  const card: import('../../web/index.js').ModelCard = await ckpt.describe();
  const vectors: number | undefined = card.embedding?.vectors;
  const step: number | null | undefined = card.embedding?.step;
  // @ts-expect-error a checkpoint's describe() takes no options
  await ckpt.describe({ readAlpha: true });
  return (vectors ?? 0) + (step ?? 0) + card.modules.tensors;
}
