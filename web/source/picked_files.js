// Picked and dropped files, as a page or <safetensors-card> gets them: each file's path in its
// folder (a folder pick's or a drop's webkitRelativePath, else its name) and the folder they
// share; a drop's files, folders walked. A drop's DataTransfer lists a dropped folder as one
// unreadable File; its entries (webkitGetAsEntry, in every current browser) are walked instead,
// and each file gets its path from the drop as webkitRelativePath, as a folder picked with
// <input webkitdirectory> has, so the package matches shards and components the same way. Views
// skip names starting with a dot (.git, .cache); a signature check gets them all, as
// model_signing signs every file but .git* and the signature.

/** A picked file's path in its folder (a folder pick or a drop), else its name. */
export const pathOf = (/** @type {File} */ f) => f.webkitRelativePath || f.name;

/** "a/b/c.json" → "a/b/"; a name without a folder → "". */
export const folderOf = (/** @type {string} */ path) => path.slice(0, path.lastIndexOf('/') + 1);

export const isBlob = (/** @type {unknown} */ v) => typeof Blob !== 'undefined' && v instanceof Blob;

/**
 * The folder picked or dropped files lie in (a folder pick's or drop's paths all start with it),
 * or null.
 * @param {File[]} files
 */
export function commonFolder(files) {
  const tops = new Set(files.map((f) => (pathOf(f).includes('/') ? pathOf(f).split('/')[0] : '')));
  const [top] = tops;
  return tops.size === 1 && top ? top : null;
}

/**
 * Every entry of a directory: readEntries gives them in batches until an empty one.
 * @param {FileSystemDirectoryReader} reader
 * @returns {Promise<FileSystemEntry[]>}
 */
async function readAll(reader) {
  /** @type {FileSystemEntry[]} */
  const out = [];
  for (;;) {
    /** @type {FileSystemEntry[]} */
    const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return out;
    out.push(...batch);
  }
}

/** @param {FileSystemFileEntry} entry @returns {Promise<File>} */
const fileOf = (entry) => new Promise((resolve, reject) => entry.file(resolve, reject));

/**
 * A File whose webkitRelativePath is `path` (when it lies in a folder).
 * @param {File} file
 * @param {string} path
 */
function withPath(file, path) {
  if (path.includes('/')) Object.defineProperty(file, 'webkitRelativePath', { value: path });
  return file;
}

/** Whether a path has a part starting with a dot (.git/HEAD, .cache/x, a/.DS_Store). */
const dotted = (/** @type {string} */ path) => path.split('/').some((part) => part.startsWith('.'));

/**
 * The files under dropped entries, depth first, each with its path; those under a dot name included.
 * @param {FileSystemEntry[]} entries
 * @returns {Promise<File[]>}
 */
export async function filesFromEntries(entries) {
  /** @type {File[]} */
  const files = [];
  /** @type {(entry: FileSystemEntry, folder: string) => Promise<void>} */
  const visit = async (entry, folder) => {
    if (entry.isDirectory) {
      const reader = /** @type {FileSystemDirectoryEntry} */ (entry).createReader();
      for (const child of await readAll(reader)) await visit(child, `${folder}${entry.name}/`);
    } else if (entry.isFile) {
      files.push(withPath(await fileOf(/** @type {FileSystemFileEntry} */ (entry)), folder + entry.name));
    }
  };
  for (const entry of entries) await visit(entry, '');
  return files;
}

/**
 * What a drop holds: its files for the views (a folder's walked, dot names left out), every
 * file for a signature check (`all`) and, when one folder was dropped, its name.
 * Call it in the drop event itself: the items can be read only then.
 * @param {DataTransfer} dataTransfer
 * @returns {Promise<{ files: File[], all: File[], folder: string | null }>}
 */
export function dropped(dataTransfer) {
  const entries = [...(dataTransfer.items ?? [])]
    .filter((item) => item.kind === 'file')
    .map((item) => item.webkitGetAsEntry?.() ?? null);
  if (entries.length === 0 || entries.includes(null)) {
    const files = [...dataTransfer.files];
    return Promise.resolve({ files, all: files, folder: null });
  }
  const found = /** @type {FileSystemEntry[]} */ (entries);
  const folder = found.length === 1 && found[0].isDirectory ? found[0].name : null;
  return filesFromEntries(found).then((all) => ({
    files: all.filter((f) => !dotted(f.webkitRelativePath || f.name)),
    all,
    folder,
  }));
}
