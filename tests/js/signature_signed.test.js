// verifyModelSignature on models signed here (tests/js/model_signer.js) with each curve, in both
// serializations (files, shards), given as folders, Maps, Files or one file; then tampered with:
// modified, missing and unexpected files, bad signatures, malformed bundles and bad options.
// The official fixtures: signature.test.js.
import { describe, expect, test } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { readFile, symlink, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { verifyModelSignature } from '../../web/index.js';
import { bundleOf, publicPem, resourcesOf, signModel, statementOf } from './model_signer.js';
import { CURVES, MODEL, dir, keys, modelFolders, writeModel } from './signed_models.js';

modelFolders();

describe('models signed here', () => {
  for (const [curve, name] of CURVES) {
    for (const [method, shardSize] of [
      ['files', undefined],
      ['shards', 1000],
    ]) {
      test(`${name}, ${method}: a folder verifies, with model.sig inside it`, async () => {
        const root = await writeModel(`${curve}-${method}`);
        const bundle = signModel(MODEL, keys[curve], { method, shardSize });
        await writeFile(join(root, 'model.sig'), JSON.stringify(bundle));
        const progress = [];
        const r = await verifyModelSignature(root, {
          signature: join(root, 'model.sig'),
          publicKey: publicPem(keys[curve]),
          onProgress: (done, total) => progress.push([done, total]),
        });
        expect(r.error).toBeNull();
        expect(r).toMatchObject({ verified: true, serialization: method, signer: { curve: name } });
        // Listed order; the empty file has no shard, so a shard manifest does not list it.
        const names = [...MODEL.keys()].sort().filter((n) => method === 'files' || MODEL.get(n).length > 0);
        expect(r.files).toEqual(names.map((n) => ({ name: n, status: 'ok' })));
        const total = 8 + 4099 + 5;
        expect(progress.at(-1)).toEqual([total, total]);
      });
    }
  }

  test('shards: resources are path:start:end with the last shard shorter', () => {
    const rs = resourcesOf(new Map([['f', new Uint8Array(2500)]]), { method: 'shards', shardSize: 1000 });
    expect(rs.map((r) => r.name)).toEqual(['f:0:1000', 'f:1000:2000', 'f:2000:2500']);
  });

  test('a model given as a Map, and as Files with webkitRelativePath (a dropped folder)', async () => {
    const bundle = signModel(MODEL, keys.secp384r1);
    const publicKey = publicPem(keys.secp384r1);
    expect((await verifyModelSignature(MODEL, { signature: bundle, publicKey })).verified).toBe(true);
    const files = [...MODEL].map(([name, bytes]) => {
      const file = new File([bytes], name.split('/').pop());
      Object.defineProperty(file, 'webkitRelativePath', { value: `picked/${name}` });
      return file;
    });
    const sig = new File([JSON.stringify(bundle)], 'model.sig');
    Object.defineProperty(sig, 'webkitRelativePath', { value: 'picked/model.sig' });
    const r = await verifyModelSignature([...files, sig], { signature: sig, publicKey });
    expect(r.verified).toBe(true);
    expect(r.files).toHaveLength(MODEL.size);
  });

  test('a single file: resource ".", given as a path or as bytes', async () => {
    const bytes = MODEL.get('model.safetensors');
    const bundle = signModel(new Map([['.', bytes]]), keys.prime256v1);
    const path = join(dir, 'single.safetensors');
    await writeFile(path, bytes);
    const publicKey = publicPem(keys.prime256v1);
    for (const model of [path, bytes]) {
      const r = await verifyModelSignature(model, { signature: JSON.stringify(bundle), publicKey });
      expect(r.verified).toBe(true);
      expect(r.files).toEqual([{ name: '.', status: 'ok' }]);
    }
  });

  test('.git, .gitattributes, .github and .gitignore are left out; ignoreGitPaths: false counts them', async () => {
    const root = await writeModel('with-git');
    await writeModel(
      'with-git',
      new Map([
        ['.git/config', new Uint8Array(3)],
        ['.gitignore', new Uint8Array(1)],
      ]),
    );
    const bundle = signModel(MODEL, keys.secp384r1);
    const options = { signature: bundle, publicKey: publicPem(keys.secp384r1) };
    expect((await verifyModelSignature(root, options)).verified).toBe(true);
    const r = await verifyModelSignature(root, { ...options, ignoreGitPaths: false });
    expect(r.verified).toBe(false);
    expect(r.files.filter((f) => f.status === 'unexpected').map((f) => f.name)).toEqual(['.git/config', '.gitignore']);
  });

  test('a symbolic link is refused unless allowSymlinks', async () => {
    const root = await writeModel('with-link');
    await symlink(join(root, 'config.json'), join(root, 'link.json'));
    const files = new Map([...MODEL, ['link.json', MODEL.get('config.json')]]);
    const options = { signature: signModel(files, keys.secp384r1), publicKey: publicPem(keys.secp384r1) };
    expect((await verifyModelSignature(root, options)).error?.code).toBe('ModelMismatch');
    expect((await verifyModelSignature(root, { ...options, allowSymlinks: true })).verified).toBe(true);
  });
});

describe('tampering', () => {
  const key = keys.secp384r1;
  const publicKey = publicPem(key);
  for (const method of ['files', 'shards']) {
    const shardSize = method === 'shards' ? 1000 : undefined;
    const bundle = signModel(MODEL, key, { method, shardSize });
    const status = (r, name) => r.files.find((f) => f.name === name)?.status;

    test(`${method}: a flipped byte is modified, the rest ok`, async () => {
      const root = await writeModel(`flip-${method}`);
      const bytes = new Uint8Array(await readFile(join(root, 'model.safetensors')));
      bytes[3000] ^= 1;
      await writeFile(join(root, 'model.safetensors'), bytes);
      const r = await verifyModelSignature(root, { signature: bundle, publicKey });
      expect(r).toMatchObject({ verified: false, error: { code: 'ModelMismatch' } });
      expect(status(r, 'model.safetensors')).toBe('modified');
      expect(status(r, 'config.json')).toBe('ok');
    });

    test(`${method}: a deleted file is missing, an added file unexpected, a longer file modified`, async () => {
      const root = await writeModel(`edit-${method}`);
      await unlink(join(root, 'config.json'));
      await writeFile(join(root, 'extra.bin'), new Uint8Array(4));
      await writeFile(join(root, 'sub/deep/x.txt'), 'hello, world');
      const r = await verifyModelSignature(root, { signature: bundle, publicKey });
      expect(r.verified).toBe(false);
      expect(status(r, 'config.json')).toBe('missing');
      expect(status(r, 'extra.bin')).toBe('unexpected');
      expect(status(r, 'sub/deep/x.txt')).toBe('modified');
      expect(status(r, 'model.safetensors')).toBe('ok');
      expect(r.files.at(-1)).toEqual({ name: 'extra.bin', status: 'unexpected' });
    });
  }

  test('a corrupted signature is BadSignature; a wrong key with the same hint is BadSignature too', async () => {
    const bundle = signModel(MODEL, key);
    const sig = Buffer.from(bundle.dsseEnvelope.signatures[0].sig, 'base64');
    sig[sig.length - 5] ^= 0x40;
    const corrupted = structuredClone(bundle);
    corrupted.dsseEnvelope.signatures[0].sig = sig.toString('base64');
    expect((await verifyModelSignature(MODEL, { signature: corrupted, publicKey })).error?.code).toBe('BadSignature');
    const other = generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).privateKey;
    const noHint = signModel(MODEL, key, { material: { publicKey: {} } });
    const r = await verifyModelSignature(MODEL, { signature: noHint, publicKey: publicPem(other) });
    expect(r).toMatchObject({ verified: false, files: [], error: { code: 'BadSignature' } });
  });

  test('a payload changed after signing is BadSignature', async () => {
    const bundle = signModel(MODEL, key);
    const statement = JSON.parse(Buffer.from(bundle.dsseEnvelope.payload, 'base64').toString());
    statement.predicate.resources[0].digest = '00'.repeat(32);
    bundle.dsseEnvelope.payload = Buffer.from(JSON.stringify(statement)).toString('base64');
    expect((await verifyModelSignature(MODEL, { signature: bundle, publicKey })).error?.code).toBe('BadSignature');
  });

  test("another model's bundle: its files missing, ours unexpected", async () => {
    const other = new Map([['weights.bin', new Uint8Array([9, 9, 9])]]);
    const r = await verifyModelSignature(MODEL, { signature: signModel(other, key), publicKey });
    expect(r.verified).toBe(false);
    expect(r.files[0]).toEqual({ name: 'weights.bin', status: 'missing' });
    expect(r.files.slice(1).every((f) => f.status === 'unexpected')).toBe(true);
  });

  test('v1.0.x rawBytes material verifies with the key given (rawBytes is not trusted)', async () => {
    const bundle = signModel(MODEL, key, { material: 'rawBytes' });
    expect((await verifyModelSignature(MODEL, { signature: bundle, publicKey })).verified).toBe(true);
  });

  test('malformed and unsupported bundles are not verified, with the reason', async () => {
    const cases = [
      ['not json', 'MalformedBundle'],
      ['[]', 'MalformedBundle'],
      [JSON.stringify({ mediaType: 'application/vnd.dev.sigstore.bundle.v0.3+json' }), 'MalformedBundle'],
      [{ ...signModel(MODEL, key), mediaType: 'application/x-other' }, 'UnsupportedBundle'],
      [
        bundleOf(null, key, {
          payload: Buffer.from(
            '{"_type":"https://in-toto.io/Statement/v1","predicateType":"https://model_signing/signature/v9.0","subject":[]}',
          ),
        }),
        'UnsupportedPredicate',
      ],
      [bundleOf(null, key, { payload: Buffer.from('not json') }), 'InconsistentManifest'],
      [bundleOf(statementOf(resourcesOf(MODEL)), key, { payloadType: 'text/plain' }), 'UnsupportedPredicate'],
      [bundleOf(statementOf(resourcesOf(MODEL), { hashType: 'blake2' }), key), 'UnsupportedHash'],
    ];
    for (const [signature, code] of cases) {
      const r = await verifyModelSignature(MODEL, { signature, publicKey });
      expect(r.verified, code).toBe(false);
      expect(r.error?.code).toBe(code);
      expect(r.error?.message.length).toBeGreaterThan(10);
    }
    // A subject digest that does not match the resources, properly signed.
    const statement = statementOf(resourcesOf(MODEL));
    statement.subject[0].digest.sha256 = 'ab'.repeat(32);
    const r = await verifyModelSignature(MODEL, { signature: bundleOf(statement, key), publicKey });
    expect(r.error?.code).toBe('InconsistentManifest');
  });

  test('bad options are TypeErrors; an abort rejects with the reason', async () => {
    const bundle = signModel(MODEL, key);
    await expect(verifyModelSignature(MODEL, { signature: bundle })).rejects.toThrow(TypeError);
    await expect(verifyModelSignature(MODEL, { signature: bundle, publicKey: 'nonsense' })).rejects.toThrow(TypeError);
    await expect(verifyModelSignature(42, { signature: bundle, publicKey })).rejects.toThrow(TypeError);
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(
      verifyModelSignature(MODEL, { signature: bundle, publicKey, signal: controller.signal }),
    ).rejects.toThrow('stop');
  });
});
