// The demo's signature check: a picked or dropped folder that holds model.sig at its top (or
// picked or dropped files, model.sig among them) is offered a verification
// (verifyModelSignature) with a public key, a certificate chain or Sigstore keyless. File names
// come from the folder (anyone's): they are only ever set as text.
import { verifyModelSignature } from '../web/index.js';

const $ = (id) => document.getElementById(id);
const SIGNATURE_NAME = 'model.sig';
let files = null; // the picked folder's files while it holds a signature
let running = null; // the AbortController of the verification under way

/**
 * The model's signature file: model.sig at the top of one folder, or among files that lie in
 * no folder; undefined when there is none.
 * @param {File[]} picked
 */
function signatureOf(picked) {
  const path = (f) => f.webkitRelativePath || '';
  if (picked.every((f) => path(f) === '')) return picked.find((f) => f.name === SIGNATURE_NAME);
  const tops = new Set(picked.map((f) => path(f).split('/')[0]));
  if (tops.size !== 1 || picked.some((f) => !path(f).includes('/'))) return undefined;
  return picked.find((f) => path(f).split('/').length === 2 && f.name === SIGNATURE_NAME);
}

/** Shows the fields the chosen method needs. */
function showMethod() {
  const method = $('sign-method').value;
  $('sign-pem-label').hidden = method === 'sigstore';
  $('sign-identity-label').hidden = method !== 'sigstore';
  $('sign-issuer-label').hidden = method !== 'sigstore';
}

/** The options of the chosen method, from the form. */
function methodOptions() {
  const method = $('sign-method').value;
  if (method === 'key') return { publicKey: $('sign-pem').value };
  if (method === 'certificate') return { certificateChain: [$('sign-pem').value] };
  return { identity: $('sign-identity').value.trim(), issuer: $('sign-issuer').value.trim() };
}

/** @param {{ verified: boolean, signer: any, error: any, files: { name: string, status: string }[] }} r */
function showResult(r) {
  const status = $('sign-status');
  const who =
    r.signer?.identity ??
    r.signer?.certificate?.subject ??
    (r.signer ? `${r.signer.curve} key ${r.signer.keyHint.slice(0, 16)}…` : '');
  status.textContent = r.verified ? `Verified: signed by ${who}` : `Not verified: ${r.error.message}`;
  status.classList.toggle('not-verified', !r.verified);
  const body = $('sign-files').tBodies[0];
  body.replaceChildren();
  for (const f of r.files) {
    const tr = body.insertRow();
    tr.dataset.testid = 'sign-file';
    tr.insertCell().textContent = f.name;
    const cell = tr.insertCell();
    cell.textContent = f.status;
    cell.className = f.status;
  }
  $('sign-files').hidden = r.files.length === 0;
}

async function verify() {
  running?.abort();
  const controller = new AbortController();
  running = controller;
  const bar = $('sign-progress');
  bar.hidden = false;
  bar.value = 0;
  $('sign-status').textContent = 'Checking the signature, then hashing the files…';
  $('sign-status').classList.remove('not-verified');
  const signature = signatureOf(files);
  try {
    const r = await verifyModelSignature(files, {
      signature,
      ...methodOptions(),
      signal: controller.signal,
      onProgress: (done, total) => {
        bar.value = total ? done / total : 1;
      },
    });
    if (running === controller) showResult(r);
  } catch (error) {
    if (running !== controller) return;
    $('sign-status').textContent = `Cannot verify: ${error.message}`;
    $('sign-status').classList.add('not-verified');
  } finally {
    if (running === controller) {
      bar.hidden = true;
      running = null;
    }
  }
}

/**
 * Offers the check when `picked` (a folder's files, or loose files) holds model.sig at its top;
 * hides it otherwise.
 * @param {File[]} picked
 */
export function offerSignature(picked) {
  running?.abort();
  const signed = signatureOf(picked) !== undefined;
  files = signed ? picked : null;
  $('sign-box').hidden = !signed;
  $('sign-status').textContent = '';
  $('sign-files').hidden = true;
}

$('sign-method').addEventListener('change', showMethod);
$('sign-verify').addEventListener('click', verify);
showMethod();
