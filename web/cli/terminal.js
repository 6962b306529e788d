// What the CLI does differently on a terminal: colours on stdout (only on a terminal, never
// with NO_COLOR, https://no-color.org), and a progress bar on stderr while a big file is read
// (only when stderr is a terminal, and neither --quiet nor --json was given).

/** A read shorter than this ends too soon for a bar to help: none is drawn. */
export const PROGRESS_MIN_BYTES = 32 << 20;
/** Redraws at most this often (the first and the last state are always drawn). */
const REDRAW_MS = 100;

/**
 * Whether a stream gets colours: NO_COLOR (set and not empty) always wins, then FORCE_COLOR
 * (set and not "0"), else whether it is a terminal.
 * @param {{ isTTY?: boolean }} stream
 * @param {Record<string, string | undefined>} env
 */
export function wantsColour(stream, env) {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0') return true;
  return Boolean(stream.isTTY);
}

const MIB = 1024 * 1024;

/**
 * `label` in `room` columns: whole, or its first word, an ellipsis and the end of the rest.
 * @param {string} label
 * @param {number} room
 */
function fitted(label, room) {
  if (label.length <= room) return label;
  const head = label.slice(0, label.indexOf(' ') + 1);
  const keep = head.length + 1 < room ? head : '';
  return `${keep}…${label.slice(label.length - Math.max(0, room - keep.length - 1))}`;
}

/**
 * One progress bar, drawn on one line of `stream` with carriage returns, erased by `end()`.
 * @param {{ write(text: string): unknown, columns?: number }} stream a terminal
 * @param {string} label what is being done, e.g. "hashing model.safetensors"
 * @param {{ now?: () => number, minBytes?: number }} [options] a clock, and the smallest read worth a bar
 */
export function progressBar(stream, label, { now = Date.now, minBytes = PROGRESS_MIN_BYTES } = {}) {
  const started = now();
  let drawnAt = -Infinity;
  let drawn = false;
  return {
    /** @type {(done: number, total: number) => void} */
    update(done, total) {
      if (total < minBytes) return;
      const t = now();
      if (drawn && done < total && t - drawnAt < REDRAW_MS) return;
      drawnAt = t;
      drawn = true;
      const fraction = total > 0 ? Math.min(1, done / total) : 1;
      const seconds = (t - started) / 1000;
      // Figures of a fixed width, so that the bar keeps its place while they change.
      const of = (total / MIB).toFixed(1);
      const rate = seconds > 0 ? (done / MIB / seconds).toFixed(1) : '-';
      const tail = ` ${String(Math.floor(fraction * 100)).padStart(3)}% ${(done / MIB).toFixed(1).padStart(of.length)}/${of} MiB ${rate.padStart(6)} MiB/s`;
      // The line fits the terminal: the bar takes 10 to 30 columns; a long label keeps its
      // first word (what is done) and the end of the rest (the file's name).
      const room = (stream.columns || 80) - 1 - tail.length - 3;
      const width = Math.max(10, Math.min(30, room - label.length));
      const full = Math.round(fraction * width);
      stream.write(`\r${fitted(label, room - width)} [${'#'.repeat(full)}${'.'.repeat(width - full)}]${tail}\x1b[K`);
    },
    /** Erases the bar (the line is left empty for what is printed next). */
    end() {
      if (drawn) stream.write('\r\x1b[K');
      drawn = false;
    },
  };
}

/**
 * The CLI's terminal: whether stdout gets colours, and progress bars on stderr when wanted.
 * @param {{ stdout: { isTTY?: boolean }, stderr: { isTTY?: boolean, write(text: string): unknown, columns?: number },
 *   env: Record<string, string | undefined>, quiet: boolean }} io
 */
export function terminal({ stdout, stderr, env, quiet }) {
  const bars = !quiet && Boolean(stderr.isTTY);
  return {
    colour: wantsColour(stdout, env),
    /**
     * Runs `work(onProgress)` with a bar labelled `label` (none when not wanted), erased at the end.
     * @template T
     * @param {string} label
     * @param {(onProgress: ((done: number, total: number) => void) | undefined) => Promise<T>} work
     * @returns {Promise<T>}
     */
    async withProgress(label, work) {
      if (!bars) return work(undefined);
      const bar = progressBar(stderr, label);
      try {
        return await work((done, total) => bar.update(done, total));
      } finally {
        bar.end();
      }
    },
  };
}

/** @typedef {ReturnType<typeof terminal>} Terminal */
