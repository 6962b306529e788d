// Debian's Chromium as every browser test and benchmark starts it: headless, with the flags a
// CI machine needs and nothing that reaches the network on its own.
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];

// WebGPU without a GPU: Dawn on SwiftShader, its CPU Vulkan (pages served from 127.0.0.1, a
// secure context). Only the tests and benchmarks of toGPU start Chromium with these.
export const WEBGPU_FLAGS = [
  '--enable-unsafe-webgpu',
  '--use-webgpu-adapter=swiftshader',
  '--enable-unsafe-swiftshader',
];

/** Debian's Chromium with FLAGS and `extraFlags` (an error naming it when it is not installed). */
function launchOptions(extraFlags) {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: make test installs Debian's chromium`);
  return { executablePath: CHROMIUM, args: [...FLAGS, ...extraFlags] };
}

/**
 * A started Chromium (playwright-core's Browser); close it when done.
 * @param {string[]} [extraFlags] more command-line flags (WEBGPU_FLAGS)
 */
export function launchChromium(extraFlags = []) {
  const options = launchOptions(extraFlags);
  return chromium.launch(options);
}

/**
 * A started Chromium with a profile of its own, kept in `userDataDir` (playwright-core's
 * BrowserContext): what service workers and installability need (not an incognito context).
 * @param {string} userDataDir
 * @param {string[]} [extraFlags]
 */
export function launchPersistentChromium(userDataDir, extraFlags = []) {
  const options = launchOptions(extraFlags);
  return chromium.launchPersistentContext(userDataDir, { ...options, acceptDownloads: true });
}
