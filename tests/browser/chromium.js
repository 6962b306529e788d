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

/** A started Chromium (playwright-core's Browser); close it when done. */
export function launchChromium() {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: make test installs Debian's chromium`);
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
}
