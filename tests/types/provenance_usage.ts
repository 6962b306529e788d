// Compiled by tsc (make test) against web/index.d.ts: the provenance and signature
// usage (Civitai, BOM, verifyModelSignature); misuse must not type-check.
import type { SafetensorsFile } from '../../web/index.js';

export async function provenance(st: SafetensorsFile): Promise<string> {
  const { lookupCivitai, createModelBom } = await import('../../web/index.js');
  const card = await st.describe();
  const page: string | null = card.civitai?.pageUrl ?? null;
  const { autoV3 } = await st.hash({ file: false });
  const version = autoV3 ? await lookupCivitai(autoV3, { baseUrl: 'https://civitai.com' }) : null;
  const words: string[] = version?.trainedWords ?? [];
  // @ts-expect-error a hash is a string
  await lookupCivitai(123);
  const bom = await createModelBom('./model', { timestamp: new Date(), signature: { verified: true } });
  const kind: string = bom.metadata.component.type;
  // @ts-expect-error the signature's result says whether it verified
  await createModelBom('./model', { signature: { method: 'key' } });
  return `${page}${words.length}${kind}${bom.specVersion}`;
}

export async function signatures(picked: FileList, pem: string, sig: File): Promise<boolean> {
  const { verifyModelSignature } = await import('../../web/index.js');
  const r: import('../../web/index.js').SignatureVerification = await verifyModelSignature(picked, {
    signature: sig,
    publicKey: pem,
    ignorePaths: ['README.md'],
    onProgress: (done: number, total: number) => void (done + total),
  });
  const statuses: import('../../web/index.js').FileStatus[] = r.files.map((f) => f.status);
  const code: import('../../web/index.js').NotVerifiedCode | undefined = r.error?.code;
  await verifyModelSignature('model-folder', { identity: 'me@example.com', issuer: 'https://accounts.google.com' });
  await verifyModelSignature(new Map([['w.bin', new Uint8Array(4)]]), { signature: '{}', certificateChain: [pem] });
  // @ts-expect-error options are required: they name the method
  await verifyModelSignature(picked);
  return r.verified && statuses.length > 0 && code === undefined && r.signer?.keyHint !== '';
}
