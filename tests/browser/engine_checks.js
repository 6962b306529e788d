// The package's API run once over a set of files, the same code in Node and in each browser
// engine (tests/browser/engines.test.js): every answer made JSON (arrays as SHA-256 digests of
// their values, so that engines are compared value for value without shipping megabytes), so
// that an engine's answers can be compared with Node's. It imports nothing: the caller gives the
// package's module (`api`), its worker module (`worker`) and the files.

/** Values as JSON-safe text: -0, NaN and BigInts kept apart. */
function plainText(array) {
  return JSON.stringify(
    Array.from(array, (v) => (typeof v === 'bigint' ? `${v}n` : Object.is(v, -0) ? '-0' : Number.isNaN(v) ? 'NaN' : v)),
  );
}

/** SHA-256 of bytes (a Blob, an ArrayBuffer or a view), as hex. */
async function sha256(bytes) {
  const buffer =
    bytes instanceof Blob ? await bytes.arrayBuffer() : ArrayBuffer.isView(bytes) ? bytes.slice().buffer : bytes;
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', buffer));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A typed array's values as a digest (and its type and length). */
const digest = async (array) => ({
  type: array.constructor.name,
  length: array.length,
  values: await sha256(new TextEncoder().encode(plainText(array))),
});

/** An error as the check records it: its name and code. */
const failed = (error) => `${error?.name}:${error?.code ?? ''}`;

/**
 * Runs every check; resolves to their answers by name. A check that throws records its error.
 * @param {object} api the package (safetensors-wasm)
 * @param {object} worker safetensors-wasm/worker
 * @param {Record<string, File>} files sample, dtypes, shard1, shard2, index, checkpoint, signed files (their paths as names)
 * @param {{ sampleUrl: string, publicKey: string }} options
 */
export async function runChecks(api, worker, files, { sampleUrl, publicKey }) {
  const checks = {
    async validate() {
      const bad = new File([(await files.sample.arrayBuffer()).slice(0, 100)], 'cut.safetensors');
      const [good, cut] = [await api.validateSafetensors(files.sample), await api.validateSafetensors(bad)];
      return [good, cut].map((r) => ({
        loadable: r.loadable,
        error: r.referenceError,
        codes: r.findings.map((f) => f.code),
      }));
    },
    async card() {
      const card = await (await api.openSafetensors(files.sample)).describe();
      return {
        kind: card.kind,
        family: card.family?.id,
        adapter: card.adapter?.type,
        parameters: card.parameters.total,
        title: card.title,
      };
    },
    async decode() {
      const st = await api.openSafetensors(files.dtypes);
      const out = {};
      for (const t of st.tensors) {
        out[t.name] = {
          native: await digest(await st.getTensor(t.name)),
          float32: await st.getTensor(t.name, { as: 'float32' }).then(digest, failed),
        };
      }
      return out;
    },
    async streamAndBatch() {
      const st = await api.openSafetensors(files.dtypes);
      const name = 't.BF16';
      const parts = [];
      for await (const chunk of st.streamTensor(name, { as: 'raw' })) parts.push(chunk.values.slice());
      const batch = await st.getTensors(
        st.tensors.map((t) => t.name),
        { as: 'raw' },
      );
      const all = [];
      for (const [tensor, bytes] of batch) all.push([tensor, await sha256(bytes)]);
      return { streamed: await sha256(new Blob(parts)), batch: all.sort() };
    },
    async hashes() {
      const h = await (await api.openSafetensors(files.sample)).hash();
      return { sha256: h.sha256, autoV2: h.autoV2, autoV3: h.autoV3, data: h.dataSha256, checks: h.checks.length };
    },
    async url() {
      const st = await api.openSafetensors(sampleUrl);
      return { tensors: st.tensors.length, first: await digest(await st.getTensor(st.tensors[1].name)) };
    },
    async sharded() {
      const model = await api.openSafetensorsIndex([files.index, files.shard1, files.shard2]);
      return {
        loadable: model.loadable,
        tensors: model.tensors.length,
        shards: model.shards.length,
        last: await digest(await model.getTensor(model.tensors.at(-1).name)),
      };
    },
    async inWorker() {
      const st = await worker.openInWorker(files.sample);
      try {
        return { tensors: st.tensors.length, values: await digest(await st.getTensor(st.tensors[2].name)) };
      } finally {
        st.close();
      }
    },
    async checkpoint() {
      const ckpt = await api.openCheckpoint(files.checkpoint);
      const first = await ckpt.getTensor(ckpt.tensors[0].name);
      return {
        verdict: ckpt.verdict,
        tensors: ckpt.tensors.length,
        first: await digest(first),
        converted: await sha256(await ckpt.toSafetensors()),
      };
    },
    async writing() {
      const written = await api.serializeSafetensors(
        {
          a: { dtype: 'F32', shape: [2], data: new Float32Array([1.5, -2]) },
          b: { dtype: 'U8', shape: [3], data: new Uint8Array([1, 2, 3]) },
        },
        { metadata: { note: 'x' } },
      );
      const st = await api.openSafetensors(files.sample);
      const edited = await st.withMetadata({ ...st.metadata, 'modelspec.title': 'edited' });
      const f16 = await st.convert({ to: 'F16' });
      return { written: await sha256(written), edited: await sha256(edited), f16: await sha256(f16) };
    },
    async gpu() {
      // No engine here but Chromium has WebGPU: without a device, toGPU says what it needs.
      const st = await api.openSafetensors(files.sample);
      return st.toGPU(undefined).then(
        () => 'no error',
        (error) => `${error.name}: ${error.message}`,
      );
    },
    async signature() {
      const signed = Object.entries(files)
        .filter(([name]) => name.startsWith('signed/'))
        .map(([name, file]) => {
          Object.defineProperty(file, 'webkitRelativePath', { value: name });
          return file;
        });
      const result = await api.verifyModelSignature(signed, { publicKey });
      return { verified: result.verified, files: result.files?.map((f) => [f.name, f.status]).sort() };
    },
  };
  const answers = {};
  for (const [name, check] of Object.entries(checks)) {
    try {
      answers[name] = await check();
    } catch (error) {
      answers[name] = `threw ${failed(error)} ${error?.message}`;
    }
  }
  return answers;
}
