// How a page saves a file it made (<safetensors-card>: a converted checkpoint): a download (an object
// URL, revoked once the download has it), or, where the browser has the File System Access API
// (showSaveFilePicker: Chromium), a file the user picks, the Blob streamed into it so that a
// checkpoint's gigabytes never sit in memory twice. The demo's editor downloads with it too.

/**
 * Saves `blob` as a download named `name`.
 * @param {Blob} blob
 * @param {string} name
 */
export function download(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Saves `blob`: to a file picked with showSaveFilePicker where the browser has it (its bytes
 * streamed to the file's writable, `onProgress(written, total)` along the way), else as a
 * download. A picker the page may not open (no user activation left after a long conversion)
 * falls back to a download.
 * @param {Blob} blob
 * @param {string} name the suggested file name
 * @param {(written: number, total: number) => void} [onProgress]
 * @returns {Promise<{ how: 'saved' | 'downloaded', name: string } | null>} null: the user cancelled
 */
export async function saveBlob(blob, name, onProgress = () => {}) {
  /** @type {any} */
  const w = window;
  if (typeof w.showSaveFilePicker !== 'function') {
    download(blob, name);
    return { how: 'downloaded', name };
  }
  let handle;
  try {
    handle = await w.showSaveFilePicker({
      suggestedName: name,
      types: [{ description: 'safetensors file', accept: { 'application/octet-stream': ['.safetensors'] } }],
    });
  } catch (error) {
    if (error instanceof Error && error.name === 'AbortError') return null;
    download(blob, name);
    return { how: 'downloaded', name };
  }
  const writable = await handle.createWritable();
  let written = 0;
  const counted = new TransformStream({
    transform(chunk, controller) {
      written += chunk.byteLength;
      onProgress(written, blob.size);
      controller.enqueue(chunk);
    },
  });
  await blob.stream().pipeThrough(counted).pipeTo(writable); // closes the writable: the file is written
  return { how: 'saved', name: handle.name };
}
