// The three browser engines, each driven as this machine allows (Debian's builds; no browser is
// downloaded): Chromium through playwright-core, Firefox ESR through puppeteer-core over WebDriver
// BiDi, and WebKitGTK (Safari's engine) through selenium-webdriver against WebKitWebDriver and
// its MiniBrowser under Xvfb. One small interface over the three: go to a page, pick files into
// an input, run a function in the page (its JSON result), wait for a condition, take a
// screenshot, close. Every driver call has a timeout, and the processes started here are stopped
// by their PIDs (a WebKit session asked for without a display hangs instead of failing).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { launchChromium } from './chromium.js';

export const ENGINES = ['chromium', 'firefox', 'webkit'];
const FIREFOX = '/usr/bin/firefox-esr';
const WEBKIT_DRIVER = '/usr/bin/WebKitWebDriver';
const MINIBROWSER = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
const CALL_TIMEOUT_MS = 60_000;

/** Whether the engine is installed here (make test installs them: Makefile, APT_CHECKS). */
export function haveEngine(engine) {
  if (engine === 'firefox') return existsSync(FIREFOX);
  if (engine === 'webkit')
    return existsSync(WEBKIT_DRIVER) && existsSync(MINIBROWSER) && existsSync('/usr/bin/xvfb-run');
  return existsSync('/usr/bin/chromium');
}

/** `promise`, or a rejection naming `what` after `ms`. */
function timed(promise, what, ms = CALL_TIMEOUT_MS) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A free TCP port on 127.0.0.1. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The source of a function called with `arg` in the page, its result awaited. */
const call = (fn, arg) => `(${fn.toString()})(${JSON.stringify(arg ?? null)})`;

async function chromiumDriver() {
  const browser = await launchChromium();
  const page = await browser.newPage({ acceptDownloads: true });
  return {
    page,
    goto: (url) => page.goto(url),
    upload: (selector, paths) => page.setInputFiles(selector, paths),
    evaluate: (fn, arg) => page.evaluate(call(fn, arg)),
    screenshot: (path) => page.screenshot({ path }),
    close: () => browser.close(),
  };
}

async function firefoxDriver() {
  const { default: puppeteer } = await import('puppeteer-core');
  const browser = await timed(
    puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true }),
    'starting Firefox',
  );
  const page = await browser.newPage();
  return {
    goto: (url) => timed(page.goto(url), `Firefox: ${url}`),
    async upload(selector, paths) {
      await page.$eval(selector, (input) => {
        input.value = '';
      });
      await timed((await page.$(selector)).uploadFile(...paths), 'Firefox: upload');
    },
    evaluate: (fn, arg) => timed(page.evaluate(call(fn, arg)), 'Firefox: evaluate'),
    screenshot: (path) => timed(page.screenshot({ path }), 'Firefox: screenshot'),
    close: () => browser.close().catch(() => browser.process()?.kill('SIGKILL')),
  };
}

async function webkitDriver() {
  const { Builder, By } = await import('selenium-webdriver');
  const port = await freePort();
  const driverProcess = spawn('xvfb-run', ['-a', '-s', '-screen 0 1280x1024x24', WEBKIT_DRIVER, `--port=${port}`], {
    stdio: 'ignore',
    detached: true,
  });
  const stop = () => {
    try {
      process.kill(-driverProcess.pid, 'SIGKILL'); // xvfb-run, Xvfb, the driver and MiniBrowser
    } catch {
      // gone already
    }
  };
  try {
    // The driver takes a moment to listen: ask until it answers.
    let driver;
    for (let attempt = 0; !driver; attempt++) {
      try {
        driver = await timed(
          new Builder()
            .usingServer(`http://127.0.0.1:${port}`)
            .withCapabilities({
              browserName: 'MiniBrowser',
              'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
            })
            .build(),
          'starting WebKit',
        );
      } catch (error) {
        if (attempt >= 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    await driver.manage().setTimeouts({ script: CALL_TIMEOUT_MS, pageLoad: CALL_TIMEOUT_MS });
    return {
      goto: (url) => timed(driver.get(url), `WebKit: ${url}`),
      async upload(selector, paths) {
        const input = await driver.findElement(By.css(selector));
        // WebKit's WebDriver adds to the files already chosen: empty the input first.
        await driver.executeScript('arguments[0].value = "";', input);
        await timed(input.sendKeys(paths.join('\n')), 'WebKit: upload');
      },
      async evaluate(fn, arg) {
        const script = `const done = arguments[arguments.length - 1];
          Promise.resolve().then(() => ${call(fn, arg)}).then((v) => done({ v }), (e) => done({ e: String(e && e.stack || e) }));`;
        const out = await timed(driver.executeAsyncScript(script), 'WebKit: evaluate');
        if (out.e) throw new Error(out.e);
        return out.v;
      },
      screenshot: async (path) => writeFile(path, Buffer.from(await driver.takeScreenshot(), 'base64')),
      async close() {
        await timed(driver.quit(), 'WebKit: quit', 15_000).catch(() => {});
        stop();
      },
    };
  } catch (error) {
    stop();
    throw error;
  }
}

/**
 * A started engine's driver.
 * @param {'chromium' | 'firefox' | 'webkit'} engine
 */
export function launchEngine(engine) {
  return engine === 'firefox' ? firefoxDriver() : engine === 'webkit' ? webkitDriver() : chromiumDriver();
}

/**
 * Polls `fn` in the page until it returns a truthy value (that value), for at most `ms`.
 * @param {Awaited<ReturnType<typeof launchEngine>>} driver
 * @param {Function} fn
 * @param {unknown} [arg]
 */
export async function waitInPage(driver, fn, arg, ms = 30_000) {
  const until = Date.now() + ms;
  for (;;) {
    const value = await driver.evaluate(fn, arg);
    if (value) return value;
    if (Date.now() > until) throw new Error(`waited ${ms} ms for ${fn.toString().slice(0, 120)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
