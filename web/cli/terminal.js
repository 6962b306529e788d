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
const mib = (/** @type {number} */ n) => `${(n / MIB).toFixed(n < 10 * MIB ? 1 : 0)} MiB`;

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
      const rate = seconds > 0 ? `, ${mib(done / seconds)}/s` : '';
      const tail = ` ${String(Math.floor(fraction * 100)).padStart(3)}% ${mib(done)} of ${mib(total)}${rate}`;
      const width = Math.max(10, Math.min(40, (stream.columns ?? 80) - label.length - tail.length - 4));
      const full = Math.round(fraction * width);
      const line = `${label} [${'#'.repeat(full)}${'.'.repeat(width - full)}]${tail}`;
      stream.write(`\r${line.slice(0, (stream.columns ?? 80) - 1)}\x1b[K`);
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
