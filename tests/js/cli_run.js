// Running the safetensors-wasm command line as a user would: with pipes, or in a terminal.
import { execFile, execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../web/cli/main.js', import.meta.url));

/**
 * The CLI with its output through pipes (no terminal); `input` is written to its stdin.
 * @param {string[]} args
 * @param {{ input?: Uint8Array | string, env?: Record<string, string> }} [options]
 * @returns {Promise<{ code: number, stdout: string, stderr: string }>}
 */
export function run(args, { input, env = {} } = {}) {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [CLI, ...args],
      { env: environment(env), maxBuffer: 64 << 20 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
    child.stdin?.end(input ?? '');
  });
}

/** util-linux's script(1), which runs a command in a pseudo-terminal; null where it is missing. */
export const SCRIPT = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return 'script';
  } catch {
    return null;
  }
})();

/** The environment the CLI gets: ours without colour settings (Node warns when both are set), plus `env`. */
function environment(/** @type {Record<string, string>} */ env) {
  const out = { ...process.env, ...env };
  for (const key of ['NO_COLOR', 'FORCE_COLOR']) if (!(key in env)) delete out[key];
  return out;
}

const quote = (/** @type {string} */ s) => `'${s.replace(/'/g, "'\\''")}'`;

/**
 * The CLI in a pseudo-terminal (stdout and stderr both a terminal, read as one stream).
 * @param {string[]} args
 * @param {Record<string, string>} [env]
 * @returns {Promise<{ code: number, output: string }>}
 */
export function runInTerminal(args, env = {}) {
  const command = [process.execPath, CLI, ...args].map(quote).join(' ');
  return new Promise((resolve) => {
    execFile(
      /** @type {string} */ (SCRIPT),
      ['-qec', command, '/dev/null'],
      { env: environment(env), maxBuffer: 64 << 20 },
      (error, stdout) => resolve({ code: error ? Number(error.code) : 0, output: stdout }),
    );
  });
}
