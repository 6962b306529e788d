// Vitest, as two projects: `node` (tests/js: the JS API under Node) and `browser` (tests/browser:
// the demo and the packaged app in real Chromium). Run one alone with --project node|browser;
// make js-test runs the two side by side, one process each (Makefile).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      // Files in parallel, one worker per core (Vitest's default leaves one core out): each file
      // uses its own temporary folders and ephemeral ports.
      { extends: true, test: { name: 'node', include: ['tests/js/**/*.test.js'], maxWorkers: '100%' } },
      // One file at a time: each starts a Chromium, and two of them crowd two cores.
      { extends: true, test: { name: 'browser', include: ['tests/browser/**/*.test.js'], fileParallelism: false } },
    ],
  },
});
