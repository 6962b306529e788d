// Files dropped on the page, folders included. A drop's DataTransfer lists a dropped folder as
// one unreadable File; its entries (webkitGetAsEntry, in every current browser) are walked
// instead, and each file gets its path from the drop as webkitRelativePath, as a folder
// picked with <input webkitdirectory> has, so the package matches shards and components the
// same way. Names starting with a dot (.git, .cache) are skipped.

/** Every entry of a directory: readEntries gives them in batches until an empty one. */
async function readAll(reader) {
  const out = [];
  for (;;) {
    const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return out;
    out.push(...batch);
  }
}

const fileOf = (entry) => new Promise((resolve, reject) => entry.file(resolve, reject));

/** A File whose webkitRelativePath is `path` (when it lies in a folder). */
function withPath(file, path) {
  if (path.includes('/')) Object.defineProperty(file, 'webkitRelativePath', { value: path });
  return file;
}

/**
 * The files under dropped entries (FileSystemEntry), depth first, each with its path.
 * @param {FileSystemEntry[]} entries
 * @returns {Promise<File[]>}
 */
export async function filesFromEntries(entries) {
  const files = [];
  const visit = async (entry, folder) => {
    if (entry.name.startsWith('.')) return;
    if (entry.isDirectory) {
      for (const child of await readAll(entry.createReader())) await visit(child, `${folder}${entry.name}/`);
    } else if (entry.isFile) {
      files.push(withPath(await fileOf(entry), folder + entry.name));
    }
  };
  for (const entry of entries) await visit(entry, '');
  return files;
}

/**
 * What a drop holds: its files (a folder's walked) and, when one folder was dropped, its name.
 * Call it in the drop event itself: the items can be read only then.
 * @param {DataTransfer} dataTransfer
 * @returns {Promise<{ files: File[], folder: string | null }>}
 */
export function dropped(dataTransfer) {
  const entries = [...(dataTransfer.items ?? [])]
    .filter((item) => item.kind === 'file')
    .map((item) => item.webkitGetAsEntry?.() ?? null);
  if (entries.length === 0 || entries.includes(null))
    return Promise.resolve({ files: [...dataTransfer.files], folder: null });
  const folder = entries.length === 1 && entries[0].isDirectory ? entries[0].name : null;
  return filesFromEntries(entries).then((files) => ({ files, folder }));
}
